/**
 * `--data <file>`: the state as one JSON file, loaded at start and rewritten after changes —
 * debounced, and atomically (temporary file + rename) so a crash never leaves half a file.
 * The file holds tokens and the signing secret, so it is created readable by its owner only.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { SandboxState } from './state.js';

const DEBOUNCE_MS = 100;

/** The saved state, or `undefined` when the file does not exist yet. */
export async function loadState(path: string): Promise<SandboxState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not a sandbox data file (not JSON)`);
  }
  const parsed = SandboxState.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path} is not a sandbox data file: ${issue?.path.join('.')} ${issue?.message}`);
  }
  return parsed.data;
}

export class DataFile {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly state: () => SandboxState,
    private readonly logger: Logger,
  ) {}

  /** Saves soon; many changes in a burst make one write. */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, DEBOUNCE_MS);
  }

  /** Saves now (pending changes included) and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }

  private write(): Promise<void> {
    // Serialized so that an older snapshot can never be renamed over a newer one.
    this.writing = this.writing.then(async () => {
      const temporary = `${this.path}.${process.pid}.tmp`;
      try {
        await writeFile(temporary, JSON.stringify(this.state()), { mode: 0o600 });
        await rename(temporary, this.path);
      } catch (error) {
        this.logger.error({ err: error, path: this.path }, 'sandbox: could not save the data file');
      }
    });
    return this.writing;
  }
}
