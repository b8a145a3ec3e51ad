// Free TCP ports for connection files and servers. All n probes stay open until every
// port is chosen, so the n ports are distinct (probing one at a time, the OS may hand
// out the same port twice). Another process may still take one before the kernel binds
// it: spawnKernel retries on "Address already in use".
import { createServer } from 'node:net';

/** @returns {Promise<number[]>} */
export async function freePorts(ip = '127.0.0.1', n = 1) {
  const probes = [];
  try {
    for (let i = 0; i < n; i++) {
      const probe = createServer();
      probes.push(probe);
      await new Promise((resolve, reject) => {
        probe.once('error', reject);
        probe.listen(0, ip, resolve);
      });
    }
    return probes.map((p) => p.address().port);
  } finally {
    await Promise.all(probes.map((p) => new Promise((resolve) => p.close(() => resolve(undefined)))));
  }
}
