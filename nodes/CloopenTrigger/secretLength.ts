import { Refusal } from '../shared/notifications/refusal';

/**
 * The shortest Secret the trigger accepts. 24 characters hold at least 96 bits even written in hex,
 * and the generator the panel suggests (`openssl rand -hex 16`, 32 characters) gives 128 bits: far
 * more guesses than any sender can post, as the throttle cannot lower how fast guesses are answered.
 */
export const MIN_SECRET_LENGTH = 24;

/** What the panel tells the owner to run to make one. */
export const SECRET_GENERATOR = 'openssl rand -hex 16';

/**
 * A Secret shorter than MIN_SECRET_LENGTH keeps the trigger closed: every request is refused (403,
 * as a trigger not opened yet) and shows on the Refused output, so a short one is never relied on.
 */
export function checkSecretLength(secret: string): void {
	if (secret === '' || secret.length >= MIN_SECRET_LENGTH) return;
	throw new Refusal(
		403,
		`trigger misconfigured: its Secret is shorter than ${MIN_SECRET_LENGTH} characters`,
		'secretTooShort',
	);
}
