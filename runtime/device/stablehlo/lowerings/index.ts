// Every StableHLO lowering, registered by importing its file (one file per op family).
import './elementwise.js';
import './unary.js';
import './reduce.js';
import './layout.js';
import './gather-scatter.js';
import './contractions.js';
import './values.js';
export { stablehloLowerings, type StableHloLowerContext, type StableHloLowering } from './table.js';
import './collectives.js';
