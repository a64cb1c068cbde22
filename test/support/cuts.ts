/**
 * Where a writer may pause when it appends a serialized session log in
 * pieces: anywhere after the header line, or just before a line ending.
 */
import fc from "fast-check";

const NEWLINE = 0x0a;

/** Where a writer pauses: anywhere, or just before a line ending (before its `\r` or its `\n`). */
export interface CutPick {
	at: "anywhere" | "beforeEol";
	n: number;
}

export const cutPicks: fc.Arbitrary<CutPick[]> = fc.array(
	fc.record({ at: fc.constantFrom("anywhere" as const, "beforeEol" as const), n: fc.nat() }),
	{ minLength: 1, maxLength: 5 },
);

/**
 * The byte offsets at which a log is written in pieces, ascending, the last
 * the whole length. None falls inside the header line's JSON, so every prefix
 * has a header.
 */
export function cutPoints(bytes: Buffer, picks: readonly CutPick[]): number[] {
	const headerEnd = bytes.indexOf(NEWLINE);
	const eols: number[] = [];
	for (let i = headerEnd; i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) {
		eols.push(i);
		if (bytes[i - 1] === 0x0d) eols.push(i - 1);
	}
	const span = bytes.length - headerEnd + 1;
	const cuts = new Set(
		picks.map(({ at, n }) =>
			at === "beforeEol" ? (eols[n % eols.length] as number) : headerEnd + (n % span),
		),
	);
	cuts.add(bytes.length);
	return [...cuts].sort((x, y) => x - y);
}
