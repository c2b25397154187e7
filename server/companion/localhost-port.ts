/**
 * In development the companion listens on 127.0.0.1 and is reached as http://localhost:PORT (its
 * public URL, and the shop's under `npm start`). A browser tries localhost's IPv6 address first:
 * another project's dev server holding [::1]:PORT (Vite and Next.js listen on "localhost", ::1 on
 * most machines) would be what opens, with no error anywhere. The port is free on 127.0.0.1, so
 * only asking ::1 finds that out.
 */
import { createServer } from 'node:net';

/** True when another program listens on [::1]:port; false when it is free or the machine has no IPv6. */
export function takenOnIpv6Loopback(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen({ port, host: '::1', ipv6Only: true, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

export function takenOnIpv6LoopbackProblem(port: number): string {
  return (
    `port ${port} is taken on ::1 by another program: a browser opening http://localhost:${port}/ reaches that program, not this server ` +
    `(which would listen on 127.0.0.1:${port}): stop it, or set PORT to a free port, or PORT=0 to take any free one`
  );
}
