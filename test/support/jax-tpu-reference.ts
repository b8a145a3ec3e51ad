// Runs test/support/jax_tpu_compile.py: JAX's AOT compile of the same StableHLO text for the
// same topology, the independent reference for XLA:TPU's figures through our binding.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface JaxCompileRequest {
  stablehlo: string;
  topology: string;
  numPartitions?: number;
  createOptions?: Record<string, unknown>;
}

export interface JaxCompileResult {
  cost: Record<string, number>;
  memory: { argumentBytes: number; outputBytes: number; aliasBytes: number; tempBytes: number; generatedCodeBytes: number };
  hloText: string;
}

const script = fileURLToPath(new URL('./jax_tpu_compile.py', import.meta.url));

export function jaxCompileForTpu(requests: JaxCompileRequest[]): Promise<(JaxCompileResult | { error: string })[]> {
  return new Promise((resolve, reject) => {
    const child = execFile('python3', [script], { maxBuffer: 64 << 20, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${script} failed: ${error.message}\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(stdout));
    });
    child.stdin!.end(JSON.stringify(requests));
  });
}

/** True when python3 can import jax (CI installs it; tests skip visibly otherwise). */
export function jaxInstalled(): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('python3', ['-c', 'import jax, jaxlib'], { timeout: 60_000 }, (error) => resolve(!error));
  });
}
