import { customServerCredentials } from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';
import { runNode } from './nodeRun';

/**
 * Bill Records → Get Download Info with Download File on: the download's own fields (the binary
 * property to put the file in, the size cap) are checked before the bill request is sent, so a bad
 * value sends nothing, like every other input rule.
 */

const platform = useScriptedPlatform({
	unscripted: () => ({
		body: JSON.stringify({
			statusCode: '000000',
			downurl: 'http://127.0.0.1:9/bills/20261121.csv',
			token: 'T0K3N',
		}),
	}),
});

const billDownload = {
	resource: 'billRecords',
	operation: 'getDownloadInfo',
	appId: '8a216da8588b296f01589e5a7f3b0b3c',
	download: true,
};

it.each([
	[
		// n8n refuses to run a field left empty; an expression that gives nothing gets through to the node.
		'a Binary Property Name whose expression gives nothing',
		{ binaryPropertyName: '={{ $json.property }}' },
		/binaryPropertyName|Put Output File in Field/,
	],
	['a Max File Size of 0', { options: { maxFileSizeMb: 0 } }, /maxFileSizeMb|Max File Size/],
])('%s fails the item before the bill request is sent', async (_name, fields, field) => {
	const run = await runNode(
		{ ...billDownload, ...fields },
		{ credentials: customServerCredentials(platform.baseUrl) },
	);
	expect(run.error?.message).toMatch(field);
	expect(run.error?.context.delivery).toBe('not sent');
	expect(platform.requests).toHaveLength(0);
});
