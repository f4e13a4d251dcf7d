import { canonicalJson, signatureOfCanonical } from './tool-signature.js';

/** An agent calling the same tool with the same input over and over. */
export interface Repetition {
  tool: string;
  signature: string;
  /** Calls counted: the length of the run, or the calls within the window. */
  count: number;
  /** `consecutive`: the same call N times in a row; `window`: A-B-A-B thrash within the recent calls. */
  kind: 'consecutive' | 'window';
  /** The canonical input, at most 200 characters. */
  inputPreview: string;
}

export interface RepetitionOptions {
  /** The same call this many times in a row is a repetition. */
  maxRepeats: number;
  /** How many recent calls the window holds (20). */
  window?: number;
  /** The same call this many times within a full window is a repetition (10). */
  windowShare?: number;
}

/** Counts kept for the run's report. */
export interface RepetitionStats {
  calls: number;
  detections: number;
  /** Detections per tool name. */
  detectionsByTool: Record<string, number>;
}

const PREVIEW_LENGTH = 200;

/**
 * Watches one agent process's tool calls for repetition. Memory is bounded by the window: it keeps
 * the last `window` signatures, never the calls themselves. The window is small, so counting in
 * it is a scan (cheaper, per call, than keeping a map of counts in step).
 */
export class RepetitionDetector {
  private readonly maxRepeats: number;
  private readonly window: number;
  private readonly windowShare: number;
  private runSignature: string | undefined;
  private runLength = 0;
  /** The signatures of the last `window` calls, oldest first; null where a detection cleared one. */
  private readonly recent: (string | null)[] = [];
  private calls = 0;
  private detections = 0;
  private readonly byTool = new Map<string, number>();

  constructor(options: RepetitionOptions) {
    this.maxRepeats = wholeAtLeast('maxRepeats', options.maxRepeats, 1);
    this.window = wholeAtLeast('window', options.window ?? 20, 1);
    this.windowShare = wholeAtLeast('windowShare', options.windowShare ?? 10, 1);
  }

  /** Records one tool call; returns its signature and the repetition it completes, if any. */
  record(call: { name: string; input: unknown }): { signature: string; repetition?: Repetition } {
    const canonical = canonicalJson(call.input);
    const signature = signatureOfCanonical(call.name, canonical);
    this.calls++;
    if (signature === this.runSignature) {
      this.runLength++;
    } else {
      this.runSignature = signature;
      this.runLength = 1;
    }
    this.recent.push(signature);
    if (this.recent.length > this.window) this.recent.shift();

    let found: Pick<Repetition, 'count' | 'kind'> | undefined;
    if (this.runLength >= this.maxRepeats) {
      found = { kind: 'consecutive', count: this.runLength };
    } else if (this.recent.length === this.window) {
      // Counted only once the window is full: early calls say nothing about thrash.
      const shared = this.recent.reduce((count, recent) => (recent === signature ? count + 1 : count), 0);
      if (shared >= this.windowShare) found = { kind: 'window', count: shared };
    }
    if (!found) return { signature };

    this.forget(signature);
    this.detections++;
    this.byTool.set(call.name, (this.byTool.get(call.name) ?? 0) + 1);
    return { signature, repetition: { tool: call.name, signature, ...found, inputPreview: preview(canonical) } };
  }

  /** Calls and detections so far. */
  stats(): RepetitionStats {
    return { calls: this.calls, detections: this.detections, detectionsByTool: Object.fromEntries(this.byTool) };
  }

  /** Clears the signature just detected, so it must repeat afresh; other calls keep counting. */
  private forget(signature: string): void {
    // It is the call just recorded, so the run in progress is its own: counted again from zero.
    this.runLength = 0;
    // The slots stay (as null), so the window still spans the last `window` calls.
    for (const [index, recent] of this.recent.entries()) if (recent === signature) this.recent[index] = null;
  }
}

/** The canonical input cut to the preview length, without splitting a surrogate pair. */
function preview(canonical: string): string {
  if (canonical.length <= PREVIEW_LENGTH) return canonical;
  let end = PREVIEW_LENGTH - 1;
  const last = canonical.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${canonical.slice(0, end)}…`;
}

function wholeAtLeast(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`RepetitionDetector: ${name} must be a whole number ≥ ${min}, got ${value}`);
  }
  return value;
}
