/**
 * `preview --eval FILE`: a report read back and checked (another JSON is
 * refused, naming what is wrong), and `/api/eval` answering the selected
 * session's runs, both sets, in call order, the flips marked; the page's
 * script for it served.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseEvalReport } from "../../src/eval/report-file.js";
import { type PreviewServer, startPreview } from "../../src/preview/server.js";
import { rawGet, scratch } from "../support/preview.js";

const SESSION = "5-no-collapse-metadata.jsonl";

const run = (index: number, set: string, tool: string | null, file = `sessions/${SESSION}`) => ({
	file,
	index,
	entryId: `e${index}`,
	set,
	sample: 0,
	answer: {
		text: tool === null ? "Done." : "",
		toolCalls: tool === null ? [] : [{ name: tool, arguments: { path: "a" } }],
	},
	recorded: { text: "", toolCalls: [{ name: "read", arguments: { path: "a" } }] },
	sameAsRecorded: { tool: tool === "read", arguments: tool === "read" },
	assertions: [],
	cost: null,
	latencyMs: 10,
	fromCache: false,
	error: null,
});

const REPORT = {
	model: "anthropic:m",
	set: "v1",
	seed: 1,
	runs: [run(2, "v1", "read"), run(0, "v1", "read"), run(0, "v1", "read", "other/else.jsonl")],
	vs: { set: "v2", runs: [run(2, "v2", null), run(0, "v2", "read")] },
	failed: [],
	summary: {
		flips: [{ file: `sessions/${SESSION}`, index: 2, sample: 0, a: "read", b: "(text)" }],
	},
	stopped: false,
};

describe("preview --eval", () => {
	const servers: PreviewServer[] = [];
	afterAll(async () => {
		await Promise.all(servers.map((s) => s.close()));
	});

	it("shows the session's runs beside what it did, flips marked", async () => {
		const paths = scratch();
		const report = parseEvalReport(JSON.stringify(REPORT), "report.json");
		const server = await startPreview({ ...paths, port: 0, cwd: paths.root, eval: report });
		servers.push(server);
		const answer = JSON.parse((await rawGet(server.port, `/api/eval?session=${SESSION}`)).body);
		expect(answer.ok).toBe(true);
		expect(
			answer.runs.map(
				(r: { index: number; set: string; flip: boolean }) => `${r.index}${r.set}${r.flip}`,
			),
		).toEqual(["0v1false", "0v2false", "2v1true", "2v2true"]);
		expect((await rawGet(server.port, "/eval.js")).status).toBe(200);
		const none = await startPreview({ ...scratch(), port: 0, cwd: paths.root });
		servers.push(none);
		const empty = JSON.parse((await rawGet(none.port, `/api/eval?session=${SESSION}`)).body);
		expect(empty).toEqual({ ok: false, error: "no eval report (preview --eval FILE)" });
	});

	it("refuses a file that is not an eval report, naming where", () => {
		expect(() => parseEvalReport("{", "r.json")).toThrow(/r\.json: not an eval report: not JSON/);
		const bad = { ...REPORT, runs: [{ ...run(0, "v1", "read"), index: "zero" }] };
		expect(() => parseEvalReport(JSON.stringify(bad), "r.json")).toThrow(/at runs\[0\]\.index/);
	});
});
