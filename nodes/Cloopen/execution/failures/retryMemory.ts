import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

/**
 * n8n's Retry On Fail runs the node's execute() again, in the same process, for the same execution
 * and run index, a few seconds after a try failed (at most 5 s between tries, at most 5 tries), and
 * with Continue On Fail also when the first output item is an error item. Each try would send every
 * item again. This memory keeps, per try, what each item that changes something came to, so the next
 * try returns an accepted item's output instead of sending it again and fails an item in doubt again
 * without sending it; only items never sent, or refused, are sent again.
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
	items: Map<number, Outcome>;
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

/** What an earlier try of this run recorded for one item, if anything. */
export type Earlier =
	{ outputs: INodeExecutionData[] } | { acceptedTooLarge: IDataObject } | { error: NodeError };

/** The record of one node run's tries (execution id, node name, run index). */
export class RetryMemory {
	private constructor(private readonly key: string) {}

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
		return new RetryMemory(JSON.stringify([executionId, node.name, runIndex]));
	}

	earlier(itemIndex: number): Earlier | undefined {
		const outcome = remembered.get(this.key)?.items.get(itemIndex);
		if (!outcome) return undefined;
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

	/** The item failed in a way that may have been carried out: it is never sent again. */
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
		forgetExpired(Date.now());
		const fresh = remembered.has(this.key) ? 0 : 1;
		for (const [key] of remembered) {
			if (remembered.size + fresh <= MAX_TRIES && keptBytes + bytes <= MAX_BYTES) return;
			if (key !== this.key) forget(key);
		}
	}

	private record(itemIndex: number, outcome: Outcome): void {
		let tries = remembered.get(this.key);
		if (!tries) {
			tries = { items: new Map(), bytes: 0, touched: 0 };
			remembered.set(this.key, tries);
		}
		const replaced = tries.items.get(itemIndex);
		const bytes =
			('bytes' in outcome ? outcome.bytes : 0) -
			(replaced && 'bytes' in replaced ? replaced.bytes : 0);
		tries.items.set(itemIndex, outcome);
		tries.bytes += bytes;
		tries.touched = Date.now();
		keptBytes += bytes;
	}
}

/** How many tries and bytes are remembered now, for the test that holds the memory to its bounds. */
export const rememberedNow = () => ({ tries: remembered.size, bytes: keptBytes });
