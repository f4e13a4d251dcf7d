/**
 * `--box`: which OS box holds the agent and the gates. `auto` takes the machine's own (bubblewrap on
 * Linux, Seatbelt on macOS) where it works and says so where it does not; a named one that cannot
 * start refuses the run.
 */
export const BOX_MODES = ['auto', 'bubblewrap', 'seatbelt', 'none'] as const;

export type BoxMode = (typeof BOX_MODES)[number];

/** `--box-network`: the host's network, or only the hosts on the allow-list, through ralph's proxy. */
export const BOX_NETWORKS = ['open', 'allow-list'] as const;

export type BoxNetworkMode = (typeof BOX_NETWORKS)[number];
