import { describe, expect, it } from 'vitest';
import { MAX_PROMPT_ARGUMENT_BYTES } from '../../../../src/agent/agent-command.js';
import { agentCommand } from '../../../../src/agent/claude/command.js';

describe('agentCommand', () => {
  it('passes the prompt as one argument after -p', () => {
    expect(agentCommand('claude', ['--dangerously-skip-permissions'], 'say "hi"; rm -rf $HOME')).toEqual({
      file: 'claude',
      args: ['-p', 'say "hi"; rm -rf $HOME', '--dangerously-skip-permissions'],
    });
  });

  it('sends a prompt over 100 KB on stdin instead', () => {
    const prompt = 'x'.repeat(MAX_PROMPT_ARGUMENT_BYTES + 1);
    expect(agentCommand('claude', ['--a'], prompt)).toEqual({ file: 'claude', args: ['-p', '--a'], input: prompt });
  });
});
