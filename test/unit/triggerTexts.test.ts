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
