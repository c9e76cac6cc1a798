import { PerTrigger, SWEEP_ABOVE } from '../../nodes/CloopenTrigger/perTrigger';

/** State per trigger is forgotten only when it is at rest (nodes/CloopenTrigger/perTrigger.ts). */
interface Budget {
	busy: boolean;
}

it('states at rest are forgotten once more than SWEEP_ABOVE are kept; busy ones never', () => {
	const triggers = new PerTrigger<Budget>(
		() => ({ busy: false }),
		(state) => !state.busy,
	);
	const busy = triggers.of('busy', 0);
	busy.busy = true;
	for (let index = 0; index < 3 * SWEEP_ABOVE; index++) triggers.of(`quiet-${index}`, 0);
	expect(triggers.size).toBeLessThanOrEqual(SWEEP_ABOVE + 1);
	expect(triggers.of('busy', 0)).toBe(busy);

	const many = new PerTrigger<Budget>(
		() => ({ busy: true }),
		(state) => !state.busy,
	);
	const first = many.of('first', 0);
	for (let index = 0; index < 3 * SWEEP_ABOVE; index++) many.of(`busy-${index}`, 0);
	// None at rest: all kept, the first one too.
	expect(many.size).toBe(3 * SWEEP_ABOVE + 1);
	expect(many.of('first', 0)).toBe(first);
});
