/**
 * A loopback TCP relay in front of a server that counts the sockets open through it: how many
 * connections a client really keeps to a service (the planning pool's cap), seen from outside the
 * client. Bytes are piped unchanged.
 */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export interface SocketCounter {
  /** The relay's origin, e.g. `http://127.0.0.1:40123` — use it in place of the server's. */
  origin: string;
  /** Sockets open through the relay now, and the most at once since the last `resetPeak()`. */
  open(): number;
  peak(): number;
  resetPeak(): void;
  close(): Promise<void>;
}

export async function startSocketCounter(target: { host: string; port: number }): Promise<SocketCounter> {
  let open = 0;
  let peak = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    open += 1;
    peak = Math.max(peak, open);
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let counted = true;
    const done = () => {
      if (counted) {
        counted = false;
        open -= 1;
      }
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', done).on('close', done);
    upstream.on('error', done).on('close', done);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    open: () => open,
    peak: () => peak,
    resetPeak: () => {
      peak = open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
