import { signedRequest } from '../../dev/platformClient';
import { useEmulator } from '../support/useEmulator';

/**
 * SMS/QuerySMSTemplate, an endpoint the node does not use (docs/platform.md#endpoints-the-node-does-not-use):
 * what a Custom API Call through n8n's HTTP Request node is tried against.
 */
const { emulator, main } = useEmulator();

const query = (body: Record<string, unknown>, format: 'json' | 'xml' = 'json') =>
	main({
		method: 'POST',
		path: 'SMS/QuerySMSTemplate',
		format,
		body:
			format === 'json'
				? JSON.stringify(body)
				: `<?xml version="1.0" encoding="UTF-8"?><Request>${Object.entries(body)
						.map(([key, value]) => `<${key}>${String(value)}</${key}>`)
						.join('')}</Request>`,
	});

it('lists every template of the application, or the one asked for', async () => {
	expect((await query({ appId: emulator.appId, templateId: '' })).json).toEqual({
		statusCode: '000000',
		TemplateSMS: [
			{ id: '1', status: '1' },
			{ id: '2', status: '1' },
		],
	});
	expect((await query({ appId: emulator.appId, templateId: '2' })).json?.TemplateSMS).toEqual([
		{ id: '2', status: '1' },
	]);
	expect((await query({ appId: emulator.appId }, 'xml')).text).toContain('<id>1</id>');
});

it('refuses an unknown template, an unknown application and a field it does not know', async () => {
	expect((await query({ appId: emulator.appId, templateId: '99' })).json?.statusCode).toBe(
		'112311',
	);
	expect((await query({ appId: 'f'.repeat(32) })).json?.statusCode).toBe('111170');
	expect((await query({ appId: emulator.appId, title: 'x' })).json?.statusCode).toBe('160031');
});

it('is signed like every endpoint: a wrong token is refused', async () => {
	const answer = await signedRequest(emulator.baseUrl, {
		method: 'POST',
		path: 'SMS/QuerySMSTemplate',
		accountSid: emulator.accountSid,
		token: 'f'.repeat(32),
		body: JSON.stringify({ appId: emulator.appId }),
	});
	expect(answer.json?.statusCode).toBe('111109');
});
