import { runCaptured } from '../process/run-captured.js';

/**
 * How `ralph init` sets a client up: the steps it prints (install, log in) and the CI workflow that
 * installs it pinned and hands it its key. Each dialect says it in its own terms.
 */
export interface ClientSetup {
  /** The npm package the workflow installs. */
  package: string;
  /** The version the workflow pins when init finds none installed here: one that installs from npm. */
  defaultVersion: string;
  /** The Node major version that version's `engines` asks for (ralph's own floor, 20, at least). */
  node: number;
  /** The client's version in what its `--version` printed; undefined for anything else (a stand-in). */
  versionIn: (output: string) => string | undefined;
  /** How to log in, as a next step says it. */
  login: string;
  /** The variable the client reads its key from in CI, and the repository secret the workflow fills it from. */
  key: { variable: string; secret: string };
}

/** How long `<client> --version` may take at init: a slow or stuck one is taken as none installed. */
const VERSION_TIMEOUT_MS = 5000;

/**
 * The version of the client installed here, so CI runs the agent the user tried: undefined when
 * its executable is missing, slow, fails, or is not that client.
 */
export async function installedClientVersion(
  executable: string | undefined,
  setup: Pick<ClientSetup, 'versionIn'>,
): Promise<string | undefined> {
  if (executable === undefined) return undefined;
  const result = await runCaptured(executable, ['--version'], { timeoutMs: VERSION_TIMEOUT_MS, maxBytes: 4096 });
  return result.exitCode === 0 && result.stopped === undefined ? setup.versionIn(result.stdout.trim()) : undefined;
}

/** A version read by a pattern whose first group is the version. */
export function versionBy(pattern: RegExp): (output: string) => string | undefined {
  return (output) => pattern.exec(output)?.[1];
}
