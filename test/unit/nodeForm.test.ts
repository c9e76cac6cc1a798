import { NodeHelpers, type INode, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { OPERATIONS as REGISTRY } from '../../nodes/Cloopen/resources';
import { editorParameters } from '../support/editorForm';

/**
 * The form as n8n resolves it (NodeHelpers.getNodeParameters, what the editor shows and saves, with
 * every default): in the conventional order, with one Options collection per operation.
 */
const description = new Cloopen().description;

function formAt(parameters: INodeParameters): INodeParameters {
	return editorParameters(description, parameters, 1) as INodeParameters;
}

const OPERATIONS = REGISTRY.map(({ resource, operation }) => ({
	resource: resource.value,
	operation: operation.value,
	sendsNothing: operation.sendsNothing === true,
	ownOptions: (operation.options ?? []).length,
}));

/** The top-level property n8n shows for these parameters, by name (the first one it displays). */
function shownProperty(parameters: INodeParameters, name: string) {
	const node = { typeVersion: 1, parameters } as unknown as INode;
	return description.properties.find(
		(property) =>
			property.name === name &&
			NodeHelpers.displayParameter(parameters, property, node, description),
	);
}

const SETTINGS = [
	'Body Format',
	'Maximum Parallel Requests',
	'Parallel Requests',
	'Requests at Once',
	'Timeout (Seconds)',
];

describe.each(OPERATIONS)(
	'$resource → $operation',
	({ resource, operation, sendsNothing, ownOptions }) => {
		const form = formAt({ resource, operation });
		const names = Object.keys(form);
		/** An operation that sends nothing offers no request settings: Options only for its own options. */
		const hasOptions = !sendsNothing || ownOptions > 0;

		it('has no setting of the run at the top level, and ends with one Options collection (none when it sends nothing and has no options)', () => {
			for (const name of [
				'bodyFormat',
				'parallelMode',
				'maxParallelRequests',
				'parallelRequests',
				'requestTimeout',
				'listOptions',
				'includeBatchNumbers',
				'date',
			]) {
				expect(names).not.toContain(name);
			}
			if (hasOptions) expect(names[names.length - 1]).toBe('options');
			else expect(names).not.toContain('options');
		});

		it("Options holds the operation's own options and the run's settings (unless it sends nothing), in alphabetical order", () => {
			const options = shownProperty({ resource, operation }, 'options') as
				INodeProperties | undefined;
			if (!hasOptions) return expect(options).toBeUndefined();
			const labels = (options!.options as INodeProperties[]).map((option) => option.displayName);
			if (sendsNothing)
				for (const setting of SETTINGS)
					expect({ setting, offered: labels.includes(setting) }).toEqual({
						setting,
						offered: false,
					});
			else expect(labels).toEqual(expect.arrayContaining(SETTINGS));
			expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
			expect(new Set(labels).size).toBe(labels.length);
		});

		it('no required field comes after a collection, whatever the other fields are set to', () => {
			const variants: INodeParameters[] = [
				{},
				{ content: 'both' },
				{ content: 'audio' },
				{ download: true },
				{ returnAll: false },
			];
			for (const variant of variants) {
				const resolved = formAt({ resource, operation, ...variant });
				const shown = Object.keys(resolved).map((name) => shownProperty(resolved, name)!);
				const firstCollection = shown.findIndex((property) =>
					['collection', 'fixedCollection'].includes(property.type),
				);
				if (firstCollection < 0) continue;
				const requiredAfter = shown
					.slice(firstCollection)
					.filter((property) => property.required)
					.map((property) => property.displayName);
				expect({ variant, requiredAfter }).toEqual({ variant, requiredAfter: [] });
			}
		});
	},
);

describe('the form leaves out what misleads', () => {
	it('Language is not offered (its only other choice, English, Cloopen does not support)', () => {
		const fields = shownProperty(
			{ resource: 'voiceVerification', operation: 'sendCode' },
			'additionalFields',
		);
		const names = (fields?.options as INodeProperties[]).map((option) => option.name);
		expect(names).not.toContain('lang');
		expect(names).toContain('maxCallTime');
	});

	it('Bill Records has no one-choice Date', () => {
		expect(formAt({ resource: 'billRecords', operation: 'getDownloadInfo' })).not.toHaveProperty(
			'date',
		);
	});

	it.each([
		['voiceVerification', 'sendCode'],
		['voiceVerification', 'sendCustomAudioCode'],
		['voiceNotification', 'call'],
	])(
		'%s → %s: Result URL is hidden (and its value left out) while Wait for Call Result is on',
		(resource, operation) => {
			const additionalFields = { respUrl: 'https://example.com/r', userData: 'u' };
			const waiting = formAt({ resource, operation, waitForResult: true, additionalFields });
			expect(waiting.additionalFields).toEqual({ userData: 'u' });
			const notWaiting = formAt({ resource, operation, waitForResult: false, additionalFields });
			expect(notWaiting.additionalFields).toEqual(additionalFields);
		},
	);

	it('Max Call Time names its unit', () => {
		const fields = shownProperty(
			{ resource: 'voiceVerification', operation: 'sendCode' },
			'additionalFields',
		);
		const maxCallTime = (fields?.options as INodeProperties[]).find(
			(option) => option.name === 'maxCallTime',
		);
		expect(maxCallTime?.displayName).toBe('Max Call Time (Seconds)');
	});

	it('Template Data rows do not read like a template left unfilled', () => {
		const templateData = shownProperty(
			{ resource: 'sms', operation: 'sendTemplate' },
			'templateData',
		);
		const row = (templateData?.options as Array<{ values: INodeProperties[] }>)[0].values[0];
		expect(row.displayName).toBe('Placeholder Value');
		expect(row.displayName).not.toMatch(/[{}]/);
	});
});

it('Voice Verification → Send Code points to One-Time Code for sign-in codes', () => {
	const code = shownProperty(
		{ resource: 'voiceVerification', operation: 'sendCode' },
		'verifyCode',
	);
	expect(code?.hint).toMatch(/^For sign-in codes use One-Time Code → Send .*One-Time Code → Check/);
});
