/**
 * Loopback TCP stand-ins for a database that misbehaves: a server that accepts connections and never
 * says a word, and a proxy to the real one that can be told to fall silent (and to speak again) or
 * to refuse connections for a while, as a server restarting does.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface Listening {
  port: number;
  close(): Promise<void>;
}

function listen(server: Server, sockets: Set<Socket>): Promise<Listening> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      resolve({
        port: address.port,
        close: () => {
          for (const socket of sockets) socket.destroy();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    }),
  );
}

/** Accepts every connection and never answers. */
export function silentServer(): Promise<Listening> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  return listen(server, sockets);
}

export interface SilenceableProxy extends Listening {
  /** From now on nothing passes either way, and new connections are accepted and left unanswered. */
  silence(): void;
  /** Traffic passes again (for new connections; silenced ones stay dead). */
  restore(): void;
  /** Drops every connection open now (the silenced ones included). */
  cut(): void;
  /**
   * Stops listening, as a server that is down: new connections are refused until `accept()`;
   * those open now stay (a test ends them server-side, as a restart would).
   */
  refuse(): void;
  /** Listens on the same port again. */
  accept(): Promise<void>;
}

/** A TCP proxy to `target` (host:port) that can fall silent. */
export function silenceableProxy(targetHost: string, targetPort: number): Promise<SilenceableProxy> {
  const sockets = new Set<Socket>();
  let silent = false;
  const server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => {});
    client.on('close', () => sockets.delete(client));
    if (silent) return;
    const upstream = connect(targetPort, targetHost);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => {
      sockets.delete(upstream);
      if (!silent) client.destroy();
    });
    client.on('close', () => {
      if (!silent) upstream.destroy();
    });
    client.on('data', (chunk) => {
      if (!silent) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!silent) client.write(chunk);
    });
  });
  return listen(server, sockets).then((listening) => ({
    ...listening,
    silence: () => {
      silent = true;
    },
    restore: () => {
      silent = false;
    },
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    refuse: () => {
      server.close();
    },
    accept: () => new Promise<void>((resolve) => server.listen(listening.port, '127.0.0.1', resolve)),
  }));
}
