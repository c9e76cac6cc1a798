/** What an operation does on the platform when it is carried out, for a failure whose answer was lost. */
export interface OperationEffect {
	/** The words after "in doubt:", e.g. "the call may have been placed". */
	inDoubt: string;
	/** What to check before sending it again. */
	check: string;
	/** It only reads: sending it again changes nothing, so Retry On Fail may send it again. */
	readOnly: boolean;
}

const CALL: OperationEffect = {
	inDoubt: 'the call may have been placed',
	check:
		"Call → Get Result cannot tell: it needs the callSid, and only the lost answer had it. Before calling again, look for the call in the next day's bill records (Bill Record → Get Download Info) or ask the person.",
	readOnly: false,
};

const READS: OperationEffect = {
	inDoubt:
		'the request may have been carried out, but it only reads, so nothing on the platform was changed',
	check: 'Running it again is safe.',
	readOnly: true,
};

/**
 * Every operation that changes something on the platform, by resource and operation. An operation not
 * listed is treated as one that may have changed something (the cautious reading), so a new
 * operation is never reported as harmless by omission.
 */
const EFFECTS: Record<string, Record<string, OperationEffect>> = {
	voiceVerification: { sendCode: CALL, sendCustomAudioCode: CALL },
	voiceNotification: { call: CALL },
	sms: {
		sendTemplate: {
			inDoubt: 'the SMS may have been sent',
			check:
				"Before sending the numbers in doubt again, check whether they got it: the platform's SMS status reports (Cloopen Trigger), the next day's bill records (Bill Record → Get Download Info), or the person.",
			readOnly: false,
		},
	},
	subAccount: {
		create: {
			inDoubt: 'the sub-account may have been created',
			check: 'Look it up with Sub-Account → Get by Name before creating it again.',
			readOnly: false,
		},
		close: {
			inDoubt: 'the sub-account may have been closed',
			check: 'Look it up with Sub-Account → Get Many before closing it again.',
			readOnly: false,
		},
		getByName: READS,
		getAll: READS,
	},
	verification: {
		sendCode: {
			inDoubt: 'the code may have been sent (the call placed or the SMS sent)',
			check:
				"Before sending another code, ask the person whether it arrived, or look for it in the next day's bill records (Bill Record → Get Download Info); a call in doubt has no callSid for Call → Get Result.",
			readOnly: false,
		},
	},
	account: { getInfo: READS },
	call: { getState: READS, getResult: READS },
	billRecords: { getDownloadInfo: READS },
};

const UNLISTED: OperationEffect = {
	inDoubt: 'the request may have been carried out',
	check: 'Check on the platform whether it was before sending it again.',
	readOnly: false,
};

export function effectOf(resource: string, operation: string): OperationEffect {
	return EFFECTS[resource]?.[operation] ?? UNLISTED;
}

/** Every operation listed, for the test that keeps this table in step with the resources. */
export const LISTED_OPERATIONS = Object.entries(EFFECTS).flatMap(([resource, operations]) =>
	Object.keys(operations).map((operation) => `${resource}.${operation}`),
);
