import { MAX_DETAILS, type BlockingEvent, type GateStatus } from './types.js';

/** The blocking event as the Markdown section the next prompt carries. */
export function formatBlockingEvent(event: BlockingEvent): string {
  const lines = [`## Completion Blocked: ${event.summary}`, '', introduction(event.originalRequest), ''];
  if (event.details.length > 0) {
    lines.push('### Issues Found', ...event.details.slice(0, MAX_DETAILS).map((detail) => `- ${detail}`), '');
  }
  if (event.suggestions.length > 0) {
    lines.push(
      '### Suggested Actions',
      ...event.suggestions.map((suggestion, index) => `${index + 1}. ${suggestion}`),
      '',
    );
  }
  lines.push('### Gate Status', ...event.gates.flatMap(statusLines));
  return `${lines.join('\n')}\n`;
}

/** A rejected claim is "your request"; a check the agent did not ask for says what it was. */
function introduction(request: string): string {
  if (/^COMPLETE\b/.test(request)) return 'Your `COMPLETE` request was blocked.';
  return `Completion is blocked: the project's checks failed (${request}).`;
}

function statusLines(gate: GateStatus): string[] {
  switch (gate.status) {
    case 'passed':
      return [`[x] ${gate.name}: passed`];
    case 'failed':
      return [`[ ] ${gate.name}: failed${gate.timedOut ? ' (timed out)' : ''}`, `    Full log: ${gate.logPath}`];
    case 'skipped':
      return [`[~] ${gate.name}: skipped (${gate.reason})`];
  }
}
