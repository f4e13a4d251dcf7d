import { BOX_MODES, BOX_NETWORKS, type BoxMode, type BoxNetworkMode } from './box-modes.js';
import { option } from './option-def.js';
import { choice, pathList } from './value-kinds.js';

/**
 * The options of the OS box (docs/sandbox.md), under one config key, `box`. The file is the agent's to
 * write, so there a key may only narrow the box: `write`, and a `mode` of "none", are refused.
 */
// The defaults below are widened from their literal to the option's whole union: inference needs
// that, though the type-aware lint sees only that the literal already fits.
/* eslint-disable @typescript-eslint/no-unnecessary-type-assertion */

const WIDENS = "would widen the agent's box";

export const BOX_OPTIONS = {
  box: option({
    flag: '--box <mode>',
    kind: choice(BOX_MODES),
    default: 'auto' as BoxMode,
    description:
      'the OS box around every agent and gate: auto (bubblewrap on Linux, Seatbelt on macOS, where the machine allows), bubblewrap, seatbelt or none (docs/sandbox.md)',
    configPath: ['box', 'mode'],
    refusedInConfig: (mode) => (mode === 'none' ? WIDENS : undefined),
  }),
  boxWrite: option({
    flag: '--box-write <path>',
    kind: pathList(),
    default: [] as string[],
    defaultLabel: 'none',
    repeatable: true,
    description:
      'one more path the agent and the gates may write (repeatable; a flag or RALPH_BOX_WRITE only: ralph/config.json may not widen the box)',
    configPath: ['box', 'write'],
    refusedInConfig: () => WIDENS,
  }),
  boxReadOnly: option({
    flag: '--box-read-only <path>',
    kind: pathList(),
    default: [] as string[],
    defaultLabel: 'none',
    repeatable: true,
    description:
      'one more path inside the box the agent may read but not write (repeatable; adds to config box.readOnly)',
    configPath: ['box', 'readOnly'],
    addsFromConfig: true,
  }),
  boxHide: option({
    flag: '--box-hide <path>',
    kind: pathList(),
    default: [] as string[],
    defaultLabel: 'none',
    repeatable: true,
    description:
      'one more path the agent may not read, beside the credential stores (repeatable; adds to config box.hide)',
    configPath: ['box', 'hide'],
    addsFromConfig: true,
  }),
  boxNetwork: option({
    flag: '--box-network <mode>',
    kind: choice(BOX_NETWORKS),
    default: 'open' as BoxNetworkMode,
    description:
      "the box's network: open (the host's), or allow-list (only the agent's own API hosts and --box-allow-host's, through ralph's proxy)",
    configPath: ['box', 'network'],
  }),
  boxAllowHost: option({
    flag: '--box-allow-host <host>',
    kind: pathList('hosts'),
    default: [] as string[],
    defaultLabel: 'none',
    repeatable: true,
    description:
      'one more host (host, host:port or *.domain) the box may reach in allow-list mode (repeatable; a flag or RALPH_BOX_ALLOW_HOST only)',
    configPath: ['box', 'allowHosts'],
    refusedInConfig: () => WIDENS,
  }),
};
