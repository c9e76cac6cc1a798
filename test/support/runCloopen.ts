import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { MANUAL_TRIGGER_TYPE, runWorkflow, type HarnessRunResult } from '../../dev/engine';
import { emulatorCredentials } from '../../dev/emulatorCredentials';

export const TEST_ACCOUNT_SID = 'aaf98f89488d0aad0148a3b8c3f70123';
/** Unique enough that finding it anywhere in an output or error is a leak, not a coincidence. */
export const TEST_AUTH_TOKEN = 'f00dfeedc0ffee5ecre7700000000042';

/** An application id of the platform's shape, for tests whose platform takes any application. */
export const TEST_APP_ID = '8a216da8588b296f01589e5a7f3b0b3c';

/** Voice Verification → Send Code of a valid code to a valid number: the run tests change one field of. */
export const SEND_CODE = {
	resource: 'voiceVerification',
	operation: 'sendCode',
	appId: TEST_APP_ID,
	to: '13800000000',
	verifyCode: '1234',
};

/** SMS → Send Template SMS of template 1 to a valid number: the run tests change one field of. */
export const SEND_TEMPLATE_SMS = {
	resource: 'sms',
	operation: 'sendTemplate',
	appId: TEST_APP_ID,
	to: '13800000000',
	templateId: '1',
};

/** The Cloopen API credential for a test's own server at `baseUrl` (Custom URL server), with the test account. */
export function customServerCredentials(
	baseUrl: string,
	extra: IDataObject = {},
): ICredentialDataDecryptedObject {
	return emulatorCredentials(
		{ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN, baseUrl },
		extra,
	);
}

export interface CloopenRunOptions {
	credentials: ICredentialDataDecryptedObject;
	/** Items that reach the Cloopen node; default one empty item. */
	items?: IDataObject[];
	continueOnFail?: boolean;
}

/**
 * Runs "Start → Cloopen" through n8n's engine, the way a user's workflow runs the node: parameters
 * are resolved by n8n (expressions included) and the real credentials class signs every request.
 */
export async function runCloopen(parameters: IDataObject, options: CloopenRunOptions) {
	const result: HarnessRunResult = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
				{
					name: 'Cloopen',
					type: 'n8n-nodes-cloopen.cloopen',
					typeVersion: 1,
					parameters: parameters as never,
					...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				},
			],
			connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
		},
		{
			nodeTypes: [Cloopen],
			credentials: { cloopenApi: options.credentials },
			inputItems: (options.items ?? [{}]).map((json): INodeExecutionData => ({ json })),
		},
	);
	const error = result.errorOf('Cloopen');
	const output = error && !options.continueOnFail ? [] : result.outputOf('Cloopen');
	return { result, error, output, json: output.map((item) => item.json) };
}
