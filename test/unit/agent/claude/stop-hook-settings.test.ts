import { describe, expect, it } from 'vitest';
import {
  mergeClaudeSettings,
  NPX_STOP_HOOK_COMMAND,
  STOP_HOOK,
} from '../../../../src/agent/claude/stop-hook-settings.js';
import { PACKAGE_NAME } from '../../../../src/package-info.js';

const RALPH_ENTRY = { hooks: [{ type: 'command', command: 'ralph hook stop', timeout: 60 }] };

describe('mergeClaudeSettings', () => {
  it('writes settings with only the Stop hook when there are none', () => {
    const merged = mergeClaudeSettings(undefined);
    expect(JSON.parse(merged.text)).toEqual({ hooks: { Stop: [RALPH_ENTRY] } });
    expect(merged.text.endsWith('}\n')).toBe(true);
    expect(merged.added).toEqual(['Stop hook "ralph hook stop"']);
    expect(STOP_HOOK).toEqual(RALPH_ENTRY.hooks[0]);
  });

  it('treats an empty file as no settings', () => {
    expect(JSON.parse(mergeClaudeSettings('\n').text)).toEqual({ hooks: { Stop: [RALPH_ENTRY] } });
  });

  it("keeps every key and hook of the user's, in order, and appends ralph's entry to hooks.Stop", () => {
    const mine = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
      },
      model: 'opus',
    };
    const merged = mergeClaudeSettings(JSON.stringify(mine, null, 2));
    const settings = JSON.parse(merged.text);
    expect(settings).toEqual({ ...mine, hooks: { ...mine.hooks, Stop: [...mine.hooks.Stop, RALPH_ENTRY] } });
    expect(Object.keys(settings)).toEqual(['permissions', 'hooks', 'model']);
  });

  it('adds hooks to settings that have none, keeping the rest', () => {
    const settings = JSON.parse(mergeClaudeSettings('{"env": {"A": "1"}}').text);
    expect(settings).toEqual({ env: { A: '1' }, hooks: { Stop: [RALPH_ENTRY] } });
  });

  it('keeps the indentation the user chose', () => {
    expect(mergeClaudeSettings('{\n\t"model": "opus"\n}\n').text).toMatch(/^\{\n\t"model"/);
    expect(mergeClaudeSettings('{\n    "model": "opus"\n}\n').text).toMatch(/^\{\n {4}"model"/);
  });

  it.each([
    'ralph hook stop',
    '  ralph hook stop ',
    NPX_STOP_HOOK_COMMAND,
    `npx ${PACKAGE_NAME}@0.1.0 hook stop`,
    '/usr/local/bin/ralph hook stop',
    'node bin/ralph.js hook stop',
    'node bin/ralph.cjs hook stop',
  ])('changes nothing when an entry already runs %j', (command) => {
    const text = JSON.stringify({ hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command }] }] } });
    expect(mergeClaudeSettings(text)).toEqual({ text, added: [] });
  });

  it.each(['npx ralph-loop hook stop', 'npx some-other-ralph hook stop'])(
    'adds its own hook beside %j: another package is not ralph',
    (command) => {
      const text = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });
      expect(JSON.parse(mergeClaudeSettings(text).text).hooks.Stop).toHaveLength(2);
    },
  );

  it('is idempotent: merging its own output changes nothing', () => {
    const once = mergeClaudeSettings('{"model": "opus"}').text;
    expect(mergeClaudeSettings(once)).toEqual({ text: once, added: [] });
  });

  it.each([
    [
      '{"hooks": {',
      /^\.claude\/settings\.json is not valid JSON \(.+\): left it as it is\. To let ralph check each stop of the agent, add \{"hooks":\{"Stop":\[\{"hooks":\[\{"type":"command","command":"ralph hook stop","timeout":60\}\]\}\]\}\} to it yourself\.$/,
    ],
    ['["a"]', /^\.claude\/settings\.json is not a JSON object: left it as it is/],
    ['{"hooks": []}', /^\.claude\/settings\.json has a "hooks" that is not an object: left it as it is/],
    ['{"hooks": {"Stop": {}}}', /^\.claude\/settings\.json has a "hooks\.Stop" that is not an array: left it as it is/],
  ])('leaves %j as it is, with a warning saying what to add', (text, warning) => {
    const merged = mergeClaudeSettings(text);
    expect(merged.text).toBe(text);
    expect(merged.added).toEqual([]);
    expect(merged.warning).toMatch(warning);
  });
});
