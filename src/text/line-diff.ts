/**
 * Line diffs in linear space. Lines are interned to numbers, lines that one
 * side does not hold at all are set aside first (they can never be common,
 * so the longest common subsequence is unchanged, and a rewrite of most
 * lines leaves little for Myers to do), and the rest goes through
 * `diff-sequences`, Myers' algorithm in its linear-space variant. Its time
 * grows with the number of differences; past a budget of line comparisons
 * (a text of few distinct lines, shuffled), the changed middle is shown as
 * removed and added whole: still a true diff, if not the shortest. A 30,000
 * line snapshot diffs in well under a second and a few megabytes.
 */
import diffSequences from "diff-sequences";

/** One line of an edit script: kept, removed from `a` or added from `b`. */
export interface LineEdit {
	op: " " | "-" | "+";
	text: string;
}

type DiffSequences = (
	aLength: number,
	bLength: number,
	isCommon: (a: number, b: number) => boolean,
	found: (n: number, a: number, b: number) => void,
) => void;
// diff-sequences is CommonJS: under ESM its default export may arrive wrapped once more.
const diff: DiffSequences =
	(diffSequences as unknown as { default?: DiffSequences }).default ??
	(diffSequences as unknown as DiffSequences);

/** Line comparisons Myers may make before the diff falls back to replacing the middle whole. */
export const COMPARISON_BUDGET = 25_000_000;

/** Thrown inside diff-sequences to stop it once the budget is spent. */
class OverBudget extends Error {}

/** The edit script turning `a` into `b`: every line of both, in order. */
export function lineEdits(
	a: readonly string[],
	b: readonly string[],
	budget = COMPARISON_BUDGET,
): LineEdit[] {
	const out: LineEdit[] = [];
	let start = 0;
	while (start < a.length && start < b.length && a[start] === b[start]) start++;
	let endA = a.length;
	let endB = b.length;
	while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
		endA--;
		endB--;
	}
	for (let i = 0; i < start; i++) out.push({ op: " ", text: a[i] as string });

	const ids = new Map<string, number>();
	const intern = (line: string) => {
		let id = ids.get(line);
		if (id === undefined) {
			id = ids.size;
			ids.set(line, id);
		}
		return id;
	};
	const idsA = Int32Array.from({ length: endA - start }, (_, i) => intern(a[start + i] as string));
	const idsB = Int32Array.from({ length: endB - start }, (_, i) => intern(b[start + i] as string));
	const inA = new Uint8Array(ids.size);
	const inB = new Uint8Array(ids.size);
	for (const id of idsA) inA[id] = 1;
	for (const id of idsB) inB[id] = 1;
	const keepA = indicesWhere(idsA, inB);
	const keepB = indicesWhere(idsB, inA);

	// The common pairs, in order, as indices relative to `start`.
	const pairs: number[] = [];
	let spent = 0;
	try {
		diff(
			keepA.length,
			keepB.length,
			(x, y) => {
				if (++spent > budget) throw new OverBudget();
				return idsA[keepA[x] as number] === idsB[keepB[y] as number];
			},
			(n, x, y) => {
				for (let k = 0; k < n; k++) pairs.push(keepA[x + k] as number, keepB[y + k] as number);
			},
		);
	} catch (error) {
		if (!(error instanceof OverBudget)) throw error;
		pairs.length = 0;
	}
	let i = 0;
	let j = 0;
	const upTo = (ai: number, bj: number) => {
		for (; i < ai; i++) out.push({ op: "-", text: a[start + i] as string });
		for (; j < bj; j++) out.push({ op: "+", text: b[start + j] as string });
	};
	for (let p = 0; p < pairs.length; p += 2) {
		upTo(pairs[p] as number, pairs[p + 1] as number);
		out.push({ op: " ", text: a[start + i] as string });
		i++;
		j++;
	}
	upTo(endA - start, endB - start);
	for (let k = endA; k < a.length; k++) out.push({ op: " ", text: a[k] as string });
	return out;
}

function indicesWhere(ids: Int32Array, present: Uint8Array): Int32Array {
	let n = 0;
	for (const id of ids) if (present[id] === 1) n++;
	const out = new Int32Array(n);
	let k = 0;
	ids.forEach((id, index) => {
		if (present[id] === 1) out[k++] = index;
	});
	return out;
}

export interface UnifiedOptions {
	/** Unchanged lines shown around each change (default 3). */
	context?: number;
	/** Applied to each line (`-x`, `+x`, ` x`, `@@ … @@`) as it is written, e.g. for colours. */
	style?: (line: string, kind: "-" | "+" | " " | "@") => string;
}

/**
 * A unified diff of two texts, line by line (`-` from `a`, `+` from `b`), in
 * hunks headed `@@ -a,n +b,m @@`. Empty when they are equal.
 */
export function unifiedDiff(a: string, b: string, options: UnifiedOptions = {}): string {
	if (a === b) return "";
	const context = options.context ?? 3;
	const style = options.style ?? ((line) => line);
	const linesA = a.split("\n");
	const linesB = b.split("\n");
	// Only the changed middle and its context are turned into edits: a long
	// unchanged start or end costs nothing.
	let start = 0;
	while (start < linesA.length && start < linesB.length && linesA[start] === linesB[start]) start++;
	let same = 0;
	while (
		same < linesA.length - start &&
		same < linesB.length - start &&
		linesA[linesA.length - 1 - same] === linesB[linesB.length - 1 - same]
	)
		same++;
	const from = Math.max(0, start - context);
	const edits = lineEdits(
		linesA.slice(from, Math.min(linesA.length, linesA.length - same + context)),
		linesB.slice(from, Math.min(linesB.length, linesB.length - same + context)),
	);
	const out: string[] = [];
	let k = 0;
	// Line numbers (1-based) of edits[k] in a and in b.
	let lineA = from + 1;
	let lineB = from + 1;
	const advance = (to: number) => {
		for (; k < to; k++) {
			const op = (edits[k] as LineEdit).op;
			if (op !== "+") lineA++;
			if (op !== "-") lineB++;
		}
	};
	while (k < edits.length) {
		let change = k;
		while (change < edits.length && (edits[change] as LineEdit).op === " ") change++;
		if (change === edits.length) break;
		advance(Math.max(k, change - context));
		const hunkStart = k;
		const fromA = lineA;
		const fromB = lineB;
		// The hunk runs until `2 * context` unchanged lines in a row, or the end.
		let end = change;
		let quiet = 0;
		for (let e = change; e < edits.length; e++) {
			if ((edits[e] as LineEdit).op === " ") {
				quiet++;
				if (quiet > 2 * context) break;
			} else {
				quiet = 0;
				end = e;
			}
		}
		const hunkEnd = Math.min(edits.length, end + 1 + context);
		let countA = 0;
		let countB = 0;
		const body: string[] = [];
		for (let e = hunkStart; e < hunkEnd; e++) {
			const { op, text } = edits[e] as LineEdit;
			if (op !== "+") countA++;
			if (op !== "-") countB++;
			body.push(style(`${op}${text}`, op));
		}
		const range = (from: number, count: number) =>
			`${count === 0 ? from - 1 : from}${count === 1 ? "" : `,${count}`}`;
		out.push(style(`@@ -${range(fromA, countA)} +${range(fromB, countB)} @@`, "@"));
		for (const line of body) out.push(line); // a spread of a huge hunk would overflow the stack
		advance(hunkEnd);
	}
	return out.join("\n");
}
