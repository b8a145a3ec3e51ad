// PyTorch's snake_case names on tpu's objects: `x.masked_fill(...)`, `if (x.requires_grad)`,
// `model.state_dict()`, `opt.zero_grad()`, `opt.param_groups`, `sched.get_last_lr()`,
// `F.cross_entropy(...)`, `tpu.nn.init.xavier_uniform_(w)`, `dt.full_tensor()`. JavaScript
// reads an unknown property as undefined, so such a read was silently false (or "not a
// function" when called). For each camelCase member of a class, its snake_case name is a
// property of the prototype that throws, naming the member to use (snake-case-hints.ts).
// Loaded last (runtime/index.ts), when every method is installed.
import { Tensor } from './tensor.js';
import { tpu } from './tpu.js';
import { Module } from './nn/module.js';
import { Optimizer, SGD, Adam, RMSprop, Adagrad } from './optim/index.js';
import { LRScheduler } from './optim/lr-scheduler/scheduler.js';
import { ReduceLROnPlateau } from './optim/lr-scheduler/reduce-lr-on-plateau.js';
import { DTensor } from './distributed/dtensor.js';
import { installHints } from './snake-case-hints.js';

installHints(Tensor.prototype, 'x', ['requiresGrad']);
// the namespaces: tpu.zeros_like, F.cross_entropy, tpu.nn.init.xavier_uniform_, tpu.utils.data.random_split
installHints(tpu, 'tpu', []);
installHints(tpu.nn, 'tpu.nn', []);
installHints(tpu.nn.functional, 'tpu.nn.functional', []);
installHints(tpu.nn.init, 'tpu.nn.init', []);
installHints(tpu.nn.utils, 'tpu.nn.utils', []);
installHints(tpu.linalg, 'tpu.linalg', []);
installHints(tpu.utils.data, 'tpu.utils.data', []);
installHints(Module.prototype, 'model', []);
installHints(Optimizer.prototype, 'opt', ['stepCount', 'paramGroups']);
// each optimizer's aliases of its only group's hyperparameters: opt.weight_decay, opt.lr_decay
for (const optimizer of [SGD, Adam, RMSprop, Adagrad]) installHints(optimizer.prototype, 'opt', []);
installHints(LRScheduler.prototype, 'sched', ['lastEpoch', 'baseLrs']);
installHints(ReduceLROnPlateau.prototype, 'sched', ['lastEpoch', 'numBadEpochs', 'cooldownCounter', 'minLrs', 'thresholdMode']);
installHints(DTensor.prototype, 'dt', []);
