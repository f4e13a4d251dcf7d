import type { InitAgent } from './agent-setup.js';

/**
 * The generated workflow's words for the agent client: its name, its npm package pinned by an
 * input of its own (`<client>-version`) with the Node its `engines` asks for, and the secret its key
 * comes from. A client that reports no cost runs without `--max-cost`, which ralph would refuse.
 */
export function withAgent(template: string, agent: InitAgent): string {
  const slug = agent.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const words: Record<string, string> = {
    __AGENT_NAME__: agent.name,
    __AGENT_PACKAGE__: agent.ci.package,
    __AGENT_INPUT__: `${slug}-version`,
    __AGENT_VERSION_VARIABLE__: `${slug.replace(/-/g, '_').toUpperCase()}_VERSION`,
    __AGENT_VERSION__: agent.ci.version,
    __AGENT_NODE__: String(agent.ci.node),
    __AGENT_KEY_VARIABLE__: agent.ci.keyVariable,
    __AGENT_SECRET__: agent.ci.secret,
  };
  const text = template.replace(/__AGENT_[A-Z_]+?__/g, (word) => words[word] ?? word);
  return agent.reportsCost ? text : text.replace(/ --max-cost \d+(?:\.\d+)?/g, '');
}
