// Builds the pjrt addon at npm install (see ../../build-addon.mjs): without it the CPU backend
// still works, and the TPU compiler features report that the addon is not built.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAddon } from '../../build-addon.mjs';

buildAddon(dirname(fileURLToPath(import.meta.url)), 'pjrt addon', 'TPU compiler off');
