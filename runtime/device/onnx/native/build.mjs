// Builds the ortc addon (our binding to ONNX Runtime's C API) at npm install (see
// ../../build-addon.mjs): without it the CPU executor runs through onnxruntime-node's binding.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAddon } from '../../build-addon.mjs';

buildAddon(dirname(fileURLToPath(import.meta.url)), 'ortc addon', 'ONNX Runtime through onnxruntime-node');
