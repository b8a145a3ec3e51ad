// Every ONNX lowering, registered by importing its file (one file per op family).
import './elementwise.js';
import './unary.js';
import './reduce.js';
import './layout.js';
import './gather-scatter.js';
import './contractions.js';
import './values.js';
import './division.js';
import './device-checks.js';
import './log-softmax.js';
import './bitwise.js';
import { onnxLowerings } from './table.js';
import { xlogyByParts } from '../../composed-lowerings.js';
import { specialFunctionLowerings } from '../../special-functions/index.js';

onnxLowerings.register({ xlogy: xlogyByParts(onnxLowerings), ...specialFunctionLowerings(onnxLowerings) });
export { onnxLowerings, type OnnxLowerContext, type OnnxLowering } from './table.js';
