/**
 * `npm test` runs on Node 24 (dev/testOnNode24.sh), the Node n8n 2.41 runs on, so the engine tests
 * run n8n 2.41's n8n-core and n8n-workflow where n8n itself runs them.
 */
test('jest runs on Node 24, as n8n 2.41 does', () => {
	expect(Number(process.versions.node.split('.')[0])).toBe(24);
});
