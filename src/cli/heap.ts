/**
 * V8's young generation as the command line runs it: kept at the size it
 * starts with (1 MB a semi-space) instead of doubling each time it fills,
 * up to 16 MB.
 *
 * Why: what a command costs above Node's own start is, in good part,
 * memory touched for the first time, and on some machines a fresh page is
 * dear (11 µs each measured on a small VM). A growing young generation
 * touches new pages at each doubling; one of a fixed size reuses its own.
 * Measured side by side, each with its code caches made under the flag
 * (median of 9 interleaved runs): `import` of a 6.6 MB Claude Code folder
 * 13,670 → 10,810 page faults and 0.87x the time; `replay --format json`
 * of it 19,680 → 16,430 faults, 0.94x the time; the sidecar's round trip
 * per appended entry unchanged at 10k and 100k entries (docs/performance.md).
 *
 * How: `--semi-space-growth-factor=1` set once V8 runs. Given on Node's
 * command line, V8 raises the factor to its minimum of 2; set later, it is
 * read where it means what it says: the young generation's next size is
 * the factor times its size. Only this flag: others tried (the collector's
 * threads) can crash the process once V8 runs. Set first thing in the
 * process, because V8 takes a code cache only under the flags it was made
 * with: the build records the caches under this same flag
 * (scripts/code-cache-record.js calls this too).
 */
import { setFlagsFromString } from "node:v8";

/** The V8 flags every command-line process runs with, set once V8 runs. */
export const COMMAND_LINE_V8_FLAGS: readonly string[] = ["--semi-space-growth-factor=1"];

/** Sets {@link COMMAND_LINE_V8_FLAGS}: first thing in a command-line process. */
export function useCommandLineHeap(): void {
	for (const flag of COMMAND_LINE_V8_FLAGS) setFlagsFromString(flag);
}
