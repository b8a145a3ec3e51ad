// Every StableHLO lowering, registered by importing its file (one file per op family).
import './elementwise.js';
import './unary.js';
import './reduce.js';
import './layout.js';
import './gather-scatter.js';
import './contractions.js';
import './values.js';
import './collectives.js';
import './bitwise.js';
import './device-check.js';
import { stablehloLowerings } from './table.js';
import { logSoftmaxByParts, xlogyByParts } from '../../composed-lowerings.js';
import { specialFunctionLowerings } from '../../special-functions/index.js';

stablehloLowerings.register({ logSoftmax: logSoftmaxByParts(stablehloLowerings), xlogy: xlogyByParts(stablehloLowerings), ...specialFunctionLowerings(stablehloLowerings) });
export { stablehloLowerings, type StableHloLowerContext, type StableHloLowering } from './table.js';
