/**
 * The sidecar's protocol: load, incremental load by cursor, reset whenever
 * the client's messages are no longer a prefix of the session's, close,
 * shutdown, end of input, and equality with `render --format llm`.
 */
import { createHash } from "node:crypto";
import {
	appendFileSync,
	cpSync,
	readdirSync,
	readFileSync,
	renameSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { ContextService } from "../../src/index.js";
import { inProcess, ROOT } from "../support/serve.js";
import { assistant, HEADER, metadata, user, writeLog } from "../support/session.js";
import { templateSet } from "../support/template-sets.js";

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** What a fresh service gives for `path`, converted as a provider gets it. */
function expected(path: string, options: { templates?: string } = {}) {
	const service = new ContextService(options);
	const bundle = service.loadSync(path);
	return { systemPrompt: bundle.systemPrompt, messages: service.convertToLlm(bundle) };
}

function conversation() {
	return writeLog([
		HEADER,
		metadata("m1", null, { tools: ["read", "bash"] }),
		user("u1", "m1", "first question"),
		assistant("a1", "u1", "first answer"),
	]);
}

describe("load", () => {
	it("returns the system prompt, its hash, every message from 0 and a cursor", async () => {
		const path = conversation();
		const { client } = inProcess();
		const reply = await client.call("load", { path });
		const result = reply.result as Record<string, unknown>;
		const want = expected(path);
		expect(reply.id).toBe(1);
		expect(result.systemPrompt).toBe(want.systemPrompt);
		expect(result.systemPromptHash).toBe(sha256(want.systemPrompt));
		expect(result.messages).toEqual(want.messages);
		expect(result.from).toBe(0);
		expect(result.reset).toBe(false);
		expect(typeof result.cursor).toBe("string");
		expect((result.meta as { leafId: string }).leafId).toBe("a1");
	});

	it("gives the stored messages with format agent", async () => {
		const path = conversation();
		const { client } = inProcess();
		const reply = await client.call("load", { path, format: "agent" });
		expect(reply.result?.messages).toEqual(new ContextService().loadSync(path).messages);
	});

	it("after an append, sends only the new messages and no unchanged prompt", async () => {
		const path = conversation();
		const { client } = inProcess();
		const first = (await client.call("load", { path })).result as Record<string, unknown>;
		appendFileSync(path, line(user("u2", "a1", "second question")));
		const second = (await client.call("load", { path, since: first.cursor })).result as Record<
			string,
			unknown
		>;
		const want = expected(path);
		expect(second.reset).toBe(false);
		expect(second.from).toBe(2);
		expect(second.messages).toEqual(want.messages.slice(2));
		expect(second).not.toHaveProperty("systemPrompt");
		expect(second.systemPromptHash).toBe(first.systemPromptHash);
		expect(second.cursor).not.toBe(first.cursor);

		// The client's copy, patched, is what a fresh load gives; and so on, turn after turn.
		appendFileSync(path, line(assistant("a2", "u2", "second answer")));
		const third = (await client.call("load", { path, since: second.cursor })).result as Record<
			string,
			unknown
		>;
		expect(third.from).toBe(3);
		expect([
			...(first.messages as unknown[]),
			...(second.messages as unknown[]),
			...(third.messages as unknown[]),
		]).toEqual(expected(path).messages);
	});

	it("sends the system prompt again when it changed, without a reset", async () => {
		const path = conversation();
		const { client } = inProcess();
		const first = (await client.call("load", { path })).result as Record<string, unknown>;
		const second = (await client.call("load", { path, since: first.cursor, memory: "Be brief." }))
			.result as Record<string, unknown>;
		expect(second.reset).toBe(false);
		expect(second.messages).toEqual([]);
		expect(second.systemPrompt).toContain("Be brief.");
		expect(second.systemPromptHash).toBe(sha256(second.systemPrompt as string));
		expect(second.systemPromptHash).not.toBe(first.systemPromptHash);
	});

	it("only new warnings come back with an incremental reply", async () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "hi"),
			{ type: "mystery", id: "x1", parentId: "u1", timestamp: HEADER.timestamp },
		]);
		const { client } = inProcess();
		const first = (await client.call("load", { path })).result as {
			meta: { diagnostics: unknown[] };
			cursor: string;
		};
		expect(first.meta.diagnostics.length).toBeGreaterThan(0);
		appendFileSync(path, line(user("u2", "x1", "more")));
		const second = (await client.call("load", { path, since: first.cursor })).result as {
			meta: { diagnostics: unknown[] };
		};
		expect(second.meta.diagnostics).toEqual([]);
	});
});

describe("reset: the client's messages are no longer a prefix", () => {
	async function afterChange(change: (path: string) => void, params: Record<string, unknown> = {}) {
		const path = conversation();
		const { client } = inProcess();
		const first = (await client.call("load", { path })).result as Record<string, unknown>;
		change(path);
		const reply = (await client.call("load", { path, since: first.cursor, ...params }))
			.result as Record<string, unknown>;
		return { path, first, reply };
	}

	it("on navigation to another branch", async () => {
		const { path, reply } = await afterChange((p) =>
			appendFileSync(p, line(user("u1b", "m1", "another first question"))),
		);
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("branch");
		expect(reply.from).toBe(0);
		expect(reply.messages).toEqual(expected(path).messages);
		expect(reply.systemPrompt).toBe(expected(path).systemPrompt);
	});

	it("when the leaf asked for is an earlier entry", async () => {
		const { reply } = await afterChange(() => {}, { leaf: "u1" });
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("branch");
		expect(reply.messages).toHaveLength(1);
	});

	it("on a new compaction", async () => {
		const compaction = {
			type: "compaction",
			id: "c1",
			parentId: "a1",
			timestamp: "2026-01-02T00:00:00.000Z",
			summary: "They asked and got an answer.",
			firstKeptEntryId: "a1",
			tokensBefore: 100,
		};
		const { path, reply } = await afterChange((p) => appendFileSync(p, line(compaction)));
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("compaction");
		expect(reply.messages).toEqual(expected(path).messages);
	});

	it("on a replaced file, even with the same entries and more", async () => {
		const { path, reply } = await afterChange((p) => {
			const copy = `${p}.new`;
			writeFileSync(
				copy,
				[
					HEADER,
					metadata("m1", null, { tools: ["read", "bash"] }),
					user("u1", "m1", "first question"),
					assistant("a1", "u1", "first answer"),
					user("u2", "a1", "then"),
				]
					.map(line)
					.join(""),
			);
			renameSync(copy, p);
		});
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("replaced");
		expect(reply.messages).toEqual(expected(path).messages);
	});

	it("on another format", async () => {
		const { reply } = await afterChange(() => {}, { format: "agent" });
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("format");
	});

	it("on another template set", async () => {
		const templates = templateSet();
		const v2 = join(templates, "v2");
		// A second set: another fingerprint, so its framings may differ.
		cpSync(join(templates, "v1"), v2, { recursive: true });
		const file = join(v2, "compaction-summary.hbs");
		writeFileSync(file, readFileSync(file, "utf8").replace("description: ", "description: v2. "));
		const path = conversation();
		const { client } = inProcess({ templates });
		const first = (await client.call("load", { path, templateVersion: "v1" })).result as Record<
			string,
			unknown
		>;
		const raw = await client.call("load", { path, templateVersion: "v2", since: first.cursor });
		expect(raw.error).toBeUndefined();
		const reply = raw.result as Record<string, unknown>;
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("templates");
		expect((reply.meta as { templateVersion: string }).templateVersion).toBe("v2");
	});

	it("for a cursor the sidecar does not know", async () => {
		const { path, reply } = await afterChange(() => {}, { since: "no-such-cursor" });
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("unknown_cursor");
		expect(reply.messages).toEqual(expected(path).messages);
	});

	// The same ids, other content: a continuation would keep the old text.
	it("when an appended entry reuses an earlier id (the later one wins)", async () => {
		const { path, reply } = await afterChange((p) =>
			appendFileSync(p, line(user("u1", "a1", "the first question, reworded"))),
		);
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("repaired");
		expect(reply.messages).toEqual(expected(path).messages);
	});

	it("when the file was edited in place and grew (a redaction), with the same ids", async () => {
		const { path, reply } = await afterChange((p) =>
			writeFileSync(p, readFileSync(p, "utf8").replace("first answer", "first answer [redacted]")),
		);
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("rewritten");
		expect(JSON.stringify(reply.messages)).toContain("[redacted]");
		expect(reply.messages).toEqual(expected(path).messages);
	});

	it("when the file was truncated", async () => {
		const { path, reply } = await afterChange((p) => {
			const lines = readFileSync(p, "utf8").split("\n");
			writeFileSync(p, `${lines.slice(0, -2).join("\n")}\n`);
		});
		expect(reply.reset).toBe(true);
		expect(reply.resetReason).toBe("rewritten");
		expect(reply.messages).toEqual(expected(path).messages);
	});
});

describe("bounds", () => {
	it("keeps at most --max-sessions sessions, least recently used out first", async () => {
		const { client, sidecar } = inProcess({ maxSessions: 2 });
		const paths = [conversation(), conversation(), conversation()];
		const cursors: string[] = [];
		for (const path of paths)
			cursors.push((await client.call("load", { path })).result?.cursor as string);
		expect(sidecar.sessionCount).toBe(2);
		const evicted = await client.call("load", { path: paths[0], since: cursors[0] });
		expect(evicted.result?.reset).toBe(true);
		expect(evicted.result?.resetReason).toBe("unknown_cursor");
		const kept = await client.call("load", { path: paths[2], since: cursors[2] });
		expect(kept.result?.reset).toBe(false);
	});

	it("keeps the last few cursors of a session: an old one means a reset", async () => {
		const path = conversation();
		const { client } = inProcess();
		const cursors: string[] = [];
		for (let i = 0; i < 6; i++)
			cursors.push((await client.call("load", { path })).result?.cursor as string);
		expect((await client.call("load", { path, since: cursors[5] })).result?.reset).toBe(false);
		expect((await client.call("load", { path, since: cursors[0] })).result?.reset).toBe(true);
	});
});

describe("close and shutdown", () => {
	it("close forgets the session: its cursors mean a reset", async () => {
		const path = conversation();
		const { client } = inProcess();
		const first = await client.call("load", { path });
		expect((await client.call("close", { path })).result).toEqual({ closed: true });
		expect((await client.call("close", { path })).result).toEqual({ closed: false });
		const again = await client.call("load", { path, since: first.result?.cursor });
		expect(again.result?.reset).toBe(true);
	});

	it("shutdown answers, then stops reading", async () => {
		const { client } = inProcess();
		const reply = await client.call("shutdown");
		expect(reply).toEqual({ jsonrpc: "2.0", id: 1, result: null });
		await client.done;
		client.send({ jsonrpc: "2.0", id: 2, method: "load", params: { path: conversation() } });
		await expect(client.next()).rejects.toThrow(/closed/);
	});

	it("the end of the input ends the server", async () => {
		const { client } = inProcess();
		await client.call("load", { path: conversation() });
		client.end();
		await expect(client.done).resolves.toBeUndefined();
	});
});

describe("the same messages as render --format llm", () => {
	const fixtures = readdirSync(join(ROOT, "test/fixtures"), { recursive: true, encoding: "utf8" })
		.filter((f) => f.endsWith(".jsonl"))
		.map((f) => join(ROOT, "test/fixtures", f));

	it("has fixtures to compare", () => {
		expect(fixtures.length).toBeGreaterThan(3);
	});

	it.each(fixtures)("%s", async (fixture) => {
		let stdout = "";
		const code = await main(["render", fixture, "--format", "llm", "--quiet"], {
			stdout: (t) => {
				stdout += t;
			},
			stderr: () => {},
			cwd: ROOT,
		});
		expect(code).toBe(0);
		const rendered = JSON.parse(stdout);
		const { client } = inProcess();
		const reply = await client.call("load", { path: fixture });
		expect(reply.result?.systemPrompt).toBe(rendered.systemPrompt);
		expect(reply.result?.messages).toEqual(rendered.messages);
	});
});
