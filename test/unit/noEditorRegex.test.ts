import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { CloopenApi } from '../../credentials/CloopenApi.credentials';

/**
 * n8n checks a field's regex validation in a sandbox with a time limit before every run; on a loaded
 * n8n it times out and fails the run before the node starts ("Regular expression execution timed out").
 * So no field of either node or the credentials asks n8n for one: the node checks its values itself.
 */
function regexRules(value: unknown, path: string, found: string[]): string[] {
	if (Array.isArray(value))
		value.forEach((entry, index) => regexRules(entry, `${path}[${index}]`, found));
	else if (value && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		if (record.type === 'regex') found.push(path);
		for (const [key, inner] of Object.entries(record)) regexRules(inner, `${path}.${key}`, found);
	}
	return found;
}

it('no field of the nodes or the credentials has a regex validation n8n would run', () => {
	expect(regexRules(new Cloopen().description.properties, 'Cloopen', [])).toEqual([]);
	expect(regexRules(new CloopenTrigger().description.properties, 'Cloopen Trigger', [])).toEqual(
		[],
	);
	expect(regexRules(new CloopenApi().properties, 'Cloopen API', [])).toEqual([]);
});
