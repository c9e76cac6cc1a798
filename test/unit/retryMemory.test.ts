import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { RetryMemory, rememberedNow } from '../../nodes/Cloopen/execution/failures/retryMemory';

/**
 * The memory Retry On Fail reads is per process: it must stay bounded whatever runs, forget what no
 * retry can need any more, and keep nothing for runs n8n never retries.
 */

let executions = 0;
function contextOf({
	retryOnFail = true,
	executionId = `execution-${++executions}`,
	runIndex = 0,
	parameters = {} as Record<string, unknown>,
} = {}): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'Cloopen', retryOnFail, parameters }),
		getNodeParameter: (name: string) => parameters[name],
		getExecutionId: () => executionId,
		getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
	} as unknown as IExecuteFunctions;
}

const output = (callSid: string): INodeExecutionData[] => [{ json: { callSid } }];
/** An output whose binary data counts `bytes` (its size is what is measured, not its content). */
const heavy = (bytes: number): INodeExecutionData[] => [
	{ json: {}, binary: { data: { data: { length: bytes } } as never } },
];

afterEach(() => jest.useRealTimers());

it('remembers nothing when Retry On Fail is off or there is no execution id', () => {
	expect(RetryMemory.of(contextOf({ retryOnFail: false }))).toBeUndefined();
	expect(RetryMemory.of(contextOf({ executionId: '' }))).toBeUndefined();
});

it('a retry of the same run finds each item; another run index or execution finds nothing', () => {
	const first = RetryMemory.of(contextOf({ executionId: 'same', runIndex: 3 }))!;
	first.accepted(0, output('call-0'), { callSid: 'call-0' });
	expect(RetryMemory.of(contextOf({ executionId: 'same', runIndex: 3 }))!.earlier(0)).toEqual({
		outputs: output('call-0'),
	});
	expect(
		RetryMemory.of(contextOf({ executionId: 'same', runIndex: 4 }))!.earlier(0),
	).toBeUndefined();
	expect(
		RetryMemory.of(contextOf({ executionId: 'other', runIndex: 3 }))!.earlier(0),
	).toBeUndefined();
	first.done();
	expect(
		RetryMemory.of(contextOf({ executionId: 'same', runIndex: 3 }))!.earlier(0),
	).toBeUndefined();
});

it('keeps at most 1,000 tries: the oldest is forgotten first', () => {
	const contexts = Array.from({ length: 1_001 }, () => contextOf());
	for (const context of contexts) RetryMemory.of(context)!.accepted(0, output('c'), {});
	expect(rememberedNow().tries).toBe(1_000);
	expect(RetryMemory.of(contexts[0])!.earlier(0)).toBeUndefined();
	expect(RetryMemory.of(contexts[1_000])!.earlier(0)).toBeDefined();
});

it('keeps at most 64 MB of outputs: older tries go first, an output larger than that alone is kept by its ids', () => {
	const MB = 1024 * 1024;
	const contexts = Array.from({ length: 5 }, () => contextOf());
	for (const context of contexts) RetryMemory.of(context)!.accepted(0, heavy(20 * MB), {});
	expect(rememberedNow().bytes).toBeLessThanOrEqual(64 * MB);
	expect(RetryMemory.of(contexts[0])!.earlier(0)).toBeUndefined();
	expect(RetryMemory.of(contexts[4])!.earlier(0)).toEqual({ outputs: heavy(20 * MB) });

	const huge = RetryMemory.of(contextOf())!;
	huge.accepted(0, heavy(65 * MB), { callSid: 'call-huge' });
	expect(huge.earlier(0)).toEqual({ acceptedTooLarge: { callSid: 'call-huge' } });
	expect(rememberedNow().bytes).toBeLessThanOrEqual(64 * MB);
});

it('forgets a try a minute after it last recorded an item (n8n waits at most 5 s between tries)', () => {
	jest.useFakeTimers({ now: Date.parse('2026-11-22T10:00:00Z') });
	const old = contextOf();
	RetryMemory.of(old)!.accepted(0, output('call-old'), {});
	jest.setSystemTime(Date.parse('2026-11-22T10:00:59Z'));
	RetryMemory.of(contextOf())!.accepted(0, output('call-new'), {});
	expect(RetryMemory.of(old)!.earlier(0)).toBeDefined();
	jest.setSystemTime(Date.parse('2026-11-22T10:01:01Z'));
	RetryMemory.of(contextOf())!.accepted(0, output('call-newer'), {});
	expect(RetryMemory.of(old)!.earlier(0)).toBeUndefined();
});

it('an item is remembered with what it sent: other resolved parameters on the retry find nothing', () => {
	const tried = {
		to: '13800000000',
		verifyCode: '4821',
		additionalFields: { userData: 'a', b: 1 },
	};
	RetryMemory.of(contextOf({ executionId: 'sent', parameters: tried }))!.accepted(
		0,
		output('call-0'),
		{},
	);
	const retry = (parameters: Record<string, unknown>) =>
		RetryMemory.of(contextOf({ executionId: 'sent', parameters }))!.earlier(0);
	expect(retry(tried)).toEqual({ outputs: output('call-0') });
	// The same values with the keys in another order are the same request.
	expect(
		retry({ additionalFields: { b: 1, userData: 'a' }, verifyCode: '4821', to: '13800000000' }),
	).toEqual({ outputs: output('call-0') });
	expect(retry({ ...tried, to: '13900000000' })).toBeUndefined();
	expect(retry({ ...tried, additionalFields: { userData: 'b', b: 1 } })).toBeUndefined();
	expect(retry({ ...tried, extra: '' })).toBeUndefined();
});

it('what an item sent is read before it is sent: a value changing after the send does not hide the outcome', () => {
	const parameters: Record<string, unknown> = { to: '13800000000' };
	const first = RetryMemory.of(contextOf({ executionId: 'before-send', parameters }))!;
	expect(first.earlier(0)).toBeUndefined();
	parameters.to = '13900000000';
	first.failed(0, new Error('in doubt') as never);
	expect(
		RetryMemory.of(
			contextOf({ executionId: 'before-send', parameters: { to: '13800000000' } }),
		)!.earlier(0),
	).toEqual({ error: expect.objectContaining({ message: 'in doubt' }) });
});
