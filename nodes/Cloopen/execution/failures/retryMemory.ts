import { createHash } from 'node:crypto';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';
import * as clock from '../../../shared/clock';

/**
 * n8n's Retry On Fail runs the node's execute() again, in the same process, for the same execution
 * and run index, a few seconds after a try failed (at most 5 s between tries, at most 5 tries), and
 * with Continue On Fail also when the first output item is an error item. Each try would send every
 * item again. This memory keeps, per try, what each item that changes something came to, so the next
 * try returns an accepted item's output instead of sending it again and fails an item in doubt again
 * without sending it; only items never sent, or refused, are sent again. An item is remembered with
 * what it sent (a digest of its resolved parameters): when an expression gives it other values on
 * the next try (another number, another text), it is another request, and is sent as a new one.
 */

/** Long past n8n's longest wait between tries (5 s), counted from the last item a try recorded. */
const KEPT_MS = 60_000;
/** Tries remembered at once across the process; the oldest is forgotten first. */
const MAX_TRIES = 1_000;
/** Outputs kept across the process; beyond it the oldest tries are forgotten first. */
const MAX_BYTES = 64 * 1024 * 1024;

type NodeError = NodeApiError | NodeOperationError;

type Outcome =
	| { accepted: INodeExecutionData[]; bytes: number }
	| { acceptedTooLarge: IDataObject }
	| { failed: NodeError };

interface Tries {
	/** Per item index: the digest of what it sent, and what that came to. */
	items: Map<number, { sent: string; outcome: Outcome }>;
	bytes: number;
	touched: number;
}

const remembered = new Map<string, Tries>();
let keptBytes = 0;

function forget(key: string): void {
	const tries = remembered.get(key);
	if (!tries) return;
	keptBytes -= tries.bytes;
	remembered.delete(key);
}

function forgetExpired(now: number): void {
	for (const [key, tries] of remembered) {
		if (now - tries.touched > KEPT_MS) forget(key);
	}
}

/** Bytes an output holds, as n8n would store it: its JSON and its binary data. */
function sizeOf(outputs: INodeExecutionData[]): number {
	let bytes = 0;
	for (const output of outputs) {
		bytes += JSON.stringify(output.json).length;
		for (const binary of Object.values(output.binary ?? {})) bytes += binary.data?.length ?? 0;
	}
	return bytes;
}

/** JSON with the keys of every object in one order, so equal values give equal text. */
function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, entry: unknown) =>
		typeof entry === 'object' && entry !== null && !Array.isArray(entry)
			? Object.fromEntries(
					Object.entries(entry as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
				)
			: entry,
	);
}

/**
 * What an item sends, as a digest: every parameter of the node resolved for that item (an expression
 * that fails counts by its message). Equal parameters send the same request; a changed value changes it.
 */
export function sentDigest(names: string[], resolve: (name: string) => unknown): string {
	const resolved = [...names].sort().map((name) => {
		try {
			const value = resolve(name) ?? null;
			canonical(value); // a value JSON cannot write (a BigInt, a cycle) counts as that error
			return [name, value];
		} catch (error) {
			return [name, { unresolved: (error as Error).message }];
		}
	});
	return createHash('sha256').update(canonical(resolved)).digest('base64url');
}

/** What an earlier try of this run recorded for one item, if anything. */
export type Earlier =
	{ outputs: INodeExecutionData[] } | { acceptedTooLarge: IDataObject } | { error: NodeError };

/** The record of one node run's tries (execution id, node name, run index). */
export class RetryMemory {
	/** What each item sends, read once per try: before it is sent, and kept for its outcome. */
	private readonly sentByItem = new Map<number, string>();

	private constructor(
		private readonly key: string,
		private readonly context: IExecuteFunctions,
	) {}

	/**
	 * The memory of this run, when n8n may run it again (Retry On Fail on). Without an execution id
	 * there is nothing to tell one run from another, so nothing is remembered.
	 */
	static of(context: IExecuteFunctions): RetryMemory | undefined {
		const node = context.getNode();
		if (node.retryOnFail !== true) return undefined;
		const executionId = context.getExecutionId();
		if (!executionId) return undefined;
		const runIndex = context.getWorkflowDataProxy(0).$runIndex;
		return new RetryMemory(JSON.stringify([executionId, node.name, runIndex]), context);
	}

	/** What the item sends in this try: its parameters resolved for it, as a digest. */
	private sent(itemIndex: number): string {
		let sent = this.sentByItem.get(itemIndex);
		if (sent === undefined) {
			const { context } = this;
			sent = sentDigest(Object.keys(context.getNode().parameters ?? {}), (name) =>
				context.getNodeParameter(name, itemIndex),
			);
			this.sentByItem.set(itemIndex, sent);
		}
		return sent;
	}

	/** What an earlier try recorded for the item, if it sent what the item sends now. */
	earlier(itemIndex: number): Earlier | undefined {
		// Read now, before the item is sent: its outcome is recorded under what it sent.
		const sent = this.sent(itemIndex);
		const entry = remembered.get(this.key)?.items.get(itemIndex);
		if (!entry || entry.sent !== sent) return undefined;
		const { outcome } = entry;
		if ('accepted' in outcome) return { outputs: outcome.accepted };
		if ('failed' in outcome) return { error: outcome.failed };
		return outcome;
	}

	/** The item was accepted; `ids` names it if its output is too large to keep. */
	accepted(itemIndex: number, outputs: INodeExecutionData[], ids: IDataObject): void {
		const bytes = sizeOf(outputs);
		this.makeRoom(bytes);
		if (keptBytes + bytes > MAX_BYTES) return this.record(itemIndex, { acceptedTooLarge: ids });
		this.record(itemIndex, { accepted: outputs, bytes });
	}

	/** The item failed in a way that may have been carried out: what it sent is never sent again. */
	failed(itemIndex: number, error: NodeError): void {
		this.makeRoom(0);
		this.record(itemIndex, { failed: error });
	}

	/** The try ended in a way n8n does not retry: nothing needs keeping. */
	done(): void {
		forget(this.key);
	}

	/** Forgets expired tries, then the oldest others, until one more try and `bytes` more fit. */
	private makeRoom(bytes: number): void {
		forgetExpired(clock.now());
		const fresh = remembered.has(this.key) ? 0 : 1;
		for (const [key] of remembered) {
			if (remembered.size + fresh <= MAX_TRIES && keptBytes + bytes <= MAX_BYTES) return;
			if (key !== this.key) forget(key);
		}
	}

	private record(itemIndex: number, outcome: Outcome): void {
		const sent = this.sent(itemIndex);
		let tries = remembered.get(this.key);
		if (!tries) {
			tries = { items: new Map(), bytes: 0, touched: 0 };
			remembered.set(this.key, tries);
		}
		const replaced = tries.items.get(itemIndex)?.outcome;
		const bytes =
			('bytes' in outcome ? outcome.bytes : 0) -
			(replaced && 'bytes' in replaced ? replaced.bytes : 0);
		tries.items.set(itemIndex, { sent, outcome });
		tries.bytes += bytes;
		tries.touched = clock.now();
		keptBytes += bytes;
	}
}

/** How many tries and bytes are remembered now, for the test that holds the memory to its bounds. */
export const rememberedNow = () => ({ tries: remembered.size, bytes: keptBytes });
