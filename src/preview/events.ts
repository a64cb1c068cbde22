/**
 * Server-Sent Events: each open page holds one `/events` response, and every
 * change is written to all of them. A comment line every few seconds keeps
 * idle connections from being cut by anything in between.
 */
import type { ServerResponse } from "node:http";
import type { ChangeEvent } from "./protocol.js";

const HEARTBEAT_MS = 15_000;
/** How long a browser waits before reconnecting after the stream broke. */
const RETRY_MS = 500;

export class EventHub {
	private readonly clients = new Set<ServerResponse>();
	private readonly heartbeat: NodeJS.Timeout;

	constructor() {
		this.heartbeat = setInterval(() => {
			for (const client of this.clients) client.write(": keep-alive\n\n");
		}, HEARTBEAT_MS);
		this.heartbeat.unref();
	}

	/** Turns `response` into an event stream; its first event names the current generation. */
	open(response: ServerResponse, generation: number): void {
		response.writeHead(200, {
			"content-type": "text/event-stream; charset=utf-8",
			"cache-control": "no-store",
			connection: "keep-alive",
		});
		response.write(`retry: ${RETRY_MS}\n\n`);
		this.write(response, "hello", { generation, what: "templates" });
		this.clients.add(response);
		response.on("close", () => this.clients.delete(response));
	}

	/** Sends `event` to every open page. */
	broadcast(event: ChangeEvent): void {
		for (const client of this.clients) this.write(client, "change", event);
	}

	get size(): number {
		return this.clients.size;
	}

	close(): void {
		clearInterval(this.heartbeat);
		for (const client of this.clients) client.end();
		this.clients.clear();
	}

	private write(response: ServerResponse, name: string, data: ChangeEvent): void {
		response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
	}
}
