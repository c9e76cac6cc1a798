import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';

/** What the trigger's panel says about where things are: n8n shows the credentials above the fields. */
it('Verify With Platform points up to the credentials, where n8n shows them', () => {
	const verify = new CloopenTrigger().description.properties.find(
		(property) => property.name === 'verifyWithPlatform',
	);
	expect(verify?.description).toContain('with the credentials chosen at the top of this panel');
	expect(verify?.description).not.toMatch(/credentials below/);
});
