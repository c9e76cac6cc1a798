import { NodeOperationError, type INode, type INodeExecutionData } from 'n8n-workflow';

import { errorItemJson } from '../../nodes/Cloopen/execution/failures/errorItem';
import { StoppedRun } from '../../nodes/Cloopen/execution/failures/stoppedRun';
import { stoppedRunError } from '../../nodes/Cloopen/execution/failures/stoppedRun';

/**
 * A failed SMS send says what happened to its numbers in the same fields wherever it is reported:
 * as an error item (Continue On Fail) and among the other failed items of a stopped run.
 */
const node: INode = {
	id: '1',
	name: 'Cloopen',
	type: 'n8n-nodes-cloopen.cloopen',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const outcome = {
	duplicatesRemoved: 2,
	sentBatches: [{ batch: 1, smsMessageSid: 'sms-1', numberCount: 200 }],
	inDoubtBatches: [2],
	inDoubtNumbers: ['13800000201'],
	unsentNumbers: ['13800000301'],
};
const smsFailure = () => {
	const error = new NodeOperationError(node, 'the answer to batch 2 was lost');
	Object.assign(error.context, outcome, { unrelated: 'kept out' });
	return error;
};

it('an error item and a stopped run report the same SMS outcome fields', () => {
	const asItem = errorItemJson(smsFailure());
	expect(asItem).toMatchObject(outcome);
	expect(asItem).not.toHaveProperty('unrelated');

	const run = new StoppedRun<INodeExecutionData[]>(
		[undefined, undefined, undefined],
		[
			{ index: 0, error: new NodeOperationError(node, 'first failure') },
			{ index: 2, error: smsFailure() },
		],
		[1],
	);
	const stopped = stoppedRunError(node, run);
	const [other] = stopped.context.otherFailedItems as Array<Record<string, unknown>>;
	expect(other).toMatchObject({ item: 2, ...outcome });
	expect(other).not.toHaveProperty('unrelated');
});
