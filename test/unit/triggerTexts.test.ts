import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';

/**
 * What the trigger's panel says about where things are: n8n 2.41 shows the credentials just above the
 * switch that asks for them (test/e2e/editor.e2e.test.ts measures it).
 */
it('Verify With Platform points up to the credentials, where n8n shows them', () => {
	const verify = new CloopenTrigger().description.properties.find(
		(property) => property.name === 'verifyWithPlatform',
	);
	expect(verify?.description).toContain('with the credentials n8n shows just above this switch');
	expect(verify?.description).not.toMatch(/credentials below/);
});

describe('how to get a test event: place a call with the Test URL as its Result URL', () => {
	const { description } = new CloopenTrigger();
	const notice = () => description.properties[0].displayName;
	const steps =
		"click 'Execute step', copy the Test URL (Webhook URLs, above the parameters) into Result URL (respUrl) of a Cloopen Voice Verification or Voice Notification (Additional Fields) and place that call: when it ends, its result shows up in this editor.";
	const panel = description.triggerPanel as {
		header: string;
		executionsHelp: { inactive: string; active: string };
		activationHint: { inactive: string; active: string };
	};

	it('the trigger panel says it in the hint shown at once, published or not, and in its help', () => {
		for (const text of [
			panel.activationHint.inactive,
			panel.activationHint.active,
			panel.executionsHelp.inactive,
			panel.executionsHelp.active,
		])
			expect(text).toContain(`<b>For a test event</b>, ${steps}`);
		// Then the Production URL, in the hint as in the help.
		expect(panel.activationHint.inactive).toMatch(/publish it and paste the Production URL/);
		expect(panel.activationHint.active).toMatch(/posted to the Production URL also start/);
	});

	it('the notice at the top of the parameters says it in the same words, then the Production URL and the Secret', () => {
		const notice = description.properties[0];
		expect(notice).toMatchObject({ type: 'notice', name: 'notice' });
		expect(notice.displayName).toBe(
			`For a test event, ${steps} Once the workflow is published, paste the Production URL there instead (add ?secret=… if you set a Secret below): Cloopen posts each call result there and the workflow starts.`,
		);
	});

	it('the canvas, while listening, names the same field and URL', () => {
		expect(description.eventTriggerDescription).toBe(
			'Waiting for a call result: paste the Test URL into Result URL (respUrl) of a Cloopen call',
		);
		// The field is Result URL on the Cloopen node's form: the label the user looks for.
		for (const text of [
			description.eventTriggerDescription,
			notice(),
			panel.activationHint.inactive,
		])
			expect(text).toContain('Result URL (respUrl)');
	});
});
