import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';
import { OPERATION_CASES } from './operationCases';

/**
 * The credentials' Default App ID: every operation that sends an App ID sends it when the node's App
 * ID is empty, the node's own App ID wins over it, and with neither nothing is sent.
 */
const OTHER_APP = 'ffffffffffffffffffffffffffffffff';
const sendsAppId = OPERATION_CASES.filter(
	(operationCase) =>
		operationCase.parameters.appId !== undefined && operationCase.json !== undefined,
);

const platform = useScriptedPlatform();

const withoutAppId = (parameters: Record<string, unknown>) => ({ ...parameters, appId: '' });
const sentBody = () => JSON.parse(platform.requests[0].body) as Record<string, unknown>;
const appIdOf = (body: Record<string, unknown>) => body.appId ?? body.Appid;

it('covers every operation that sends an App ID', () => {
	expect(sendsAppId.map((operationCase) => operationCase.title)).toEqual(
		expect.arrayContaining([
			'Voice Verification → Send Code',
			'Voice Notification → Call (audio files)',
			expect.stringMatching(/^SMS → Send Template/),
			expect.stringMatching(/^Sub-Account → Create/),
			expect.stringMatching(/^Sub-Account → Get by Name/),
			expect.stringMatching(/^Sub-Account → Get Many/),
			expect.stringMatching(/^Call → Get State/),
			expect.stringMatching(/^Bill Record/),
		]),
	);
});

describe.each(sendsAppId)('$title', (operationCase) => {
	it('sends the Default App ID of the credentials when the node has none: the same request as with the App ID in the node', async () => {
		platform.reply({ body: JSON.stringify(operationCase.responseJson) });
		const { error, json } = await runCloopen(withoutAppId(operationCase.parameters), {
			credentials: customServerCredentials(platform.baseUrl, {
				appId: String(operationCase.parameters.appId),
			}),
		});
		expect(error).toBeUndefined();
		expect(json).toEqual(operationCase.output);
		expect(sentBody()).toEqual(operationCase.json);
	});

	it("sends the node's own App ID when it has one, whatever the credentials say", async () => {
		platform.reply({ body: JSON.stringify(operationCase.responseJson) });
		const { error } = await runCloopen(operationCase.parameters, {
			credentials: customServerCredentials(platform.baseUrl, { appId: OTHER_APP }),
		});
		expect(error).toBeUndefined();
		expect(appIdOf(sentBody())).toBe(operationCase.parameters.appId);
	});

	it('sends nothing and says where to set one when neither has an App ID', async () => {
		const { error } = await runCloopen(withoutAppId(operationCase.parameters), {
			credentials: customServerCredentials(platform.baseUrl, { appId: '  ' }),
		});
		expect(error?.message).toBe(
			'No App ID: the App ID field is empty and the credentials have no Default App ID',
		);
		expect(error?.description).toMatch(
			/The request was not sent\. Enter the App ID .* or as Default App ID in the Cloopen credentials/,
		);
		expect(platform.requests).toHaveLength(0);
	});
});
