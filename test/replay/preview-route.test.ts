/**
 * `/api/replay` of the preview server: with the replaying handed in (as the
 * command line does), the selected session's bars under the selected set,
 * the same numbers `replay` gives; without it, an answer saying so; an
 * unknown session named as such.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readUnits, Units } from "../../src/measure/units.js";
import { type PreviewServer, startPreview } from "../../src/preview/server.js";
import { replayBars } from "../../src/replay/bars.js";
import { Prices } from "../../src/replay/prices.js";
import { Replayer } from "../../src/replay/replay.js";
import { compileTemplateSet } from "../../src/templates/compile.js";
import { rawGet, scratch } from "../support/preview.js";

describe("/api/replay", () => {
	const servers: PreviewServer[] = [];
	afterAll(async () => {
		await Promise.all(servers.map((s) => s.close()));
	});
	const start = async (withReplay: boolean) => {
		const paths = scratch();
		const server = await startPreview({
			...paths,
			port: 0,
			cwd: paths.root,
			...(withReplay ? { replay: replayBars } : {}),
		});
		servers.push(server);
		return { server, paths };
	};
	const ask = async (server: PreviewServer, session: string) => {
		const reply = await rawGet(server.port, `/api/replay?session=${session}&set=`);
		expect(reply.status).toBe(200);
		return JSON.parse(reply.body);
	};

	it("answers each call's cached, new and output tokens, as replay counts them", async () => {
		const { server, paths } = await start(true);
		const session = "5-no-collapse-metadata.jsonl";
		const answer = await ask(server, session);
		expect(answer.ok, answer.error).toBe(true);
		const expected = new Replayer(
			{ side: { templates: paths.templates } },
			new Units({ table: readUnits() }),
			new Prices(),
			{ compiler: compileTemplateSet },
		).replay(`${paths.sessions}/${session}`);
		expect(answer.calls.length).toBeGreaterThan(0);
		expect(answer.calls.map((c: { cached: number }) => c.cached)).toEqual(
			expected.calls.map((c) => c.cachedTokens),
		);
		expect(answer.calls.map((c: { fresh: number }) => c.fresh)).toEqual(
			expected.calls.map((c) => c.newTokens),
		);
		expect(answer.total.contextTokens).toBe(expected.total.contextTokens);
		expect((await ask(server, "no-such.jsonl")).ok).toBe(false);
	});

	it("says so when the server was started without replay", async () => {
		const { server } = await start(false);
		const answer = await ask(server, "1-normal.jsonl");
		expect(answer).toMatchObject({ ok: false });
		expect(answer.error).toMatch(/without replay/);
	});
});
