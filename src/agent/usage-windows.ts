import type { UsageWindow } from '../domain/usage.js';
import { epochToMs } from './limit-reset.js';

/**
 * The windows a stream-json `rate_limit_event` reports a utilization for: its own
 * `rateLimitType`, and each entry of `unifiedWindows` when the client sends them. Claude Code
 * fills `utilization` on `allowed_warning` and `rejected` events (anthropics/claude-code#41185).
 */
export function usageWindowsFromEvent(event: unknown): UsageWindow[] {
  if (!isRecord(event) || event.type !== 'rate_limit_event' || !isRecord(event.rate_limit_info)) return [];
  const info = event.rate_limit_info;
  const windows: UsageWindow[] = [];
  const own = windowOf(info.rateLimitType, info);
  if (own) windows.push(own);
  if (isRecord(info.unifiedWindows)) {
    for (const [name, value] of Object.entries(info.unifiedWindows)) {
      const window = isRecord(value) ? windowOf(name, value) : undefined;
      if (window && window.window !== own?.window) windows.push(window);
    }
  }
  return windows;
}

function windowOf(name: unknown, value: Record<string, unknown>): UsageWindow | undefined {
  const utilization = value.utilization;
  if (
    typeof name !== 'string' ||
    name === '' ||
    typeof utilization !== 'number' ||
    !Number.isFinite(utilization) ||
    utilization < 0
  )
    return undefined;
  const reset =
    typeof value.resetsAt === 'number'
      ? value.resetsAt
      : typeof value.resets_at === 'number'
        ? value.resets_at
        : undefined;
  const resetsAt = reset === undefined ? undefined : epochToMs(reset);
  return { window: name.slice(0, 40), utilization, ...(resetsAt === undefined ? {} : { resetsAt }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
