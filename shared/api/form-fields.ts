import { _default, string, trim } from 'zod/mini';

/**
 * The shapes of a dashboard form's fields, as its declaration states them and its page wrapper
 * parses them (`parseForm` in `shared/http/page-handler.ts`). A schema here checks shape only:
 * what a field must say (an amount within limits, a known store) is the operation's to check, with
 * its own message beside the field. So a field a person types is `text`: there even when left
 * empty or left out, never refused; a field the page always sends (a hidden id, the token) is a
 * plain `string()`, whose absence means the post is not the page's own (400); a choice among
 * fixed values is `optional(enumOf([...]))`, undefined and named in `fieldErrors` when it is none
 * of them.
 */

/**
 * What a person typed, as typed; empty when left out. A new schema each call, like `string()`: a
 * description registered on one field must not become every field's.
 */
export const text = () => _default(string(), '');

/** What a person typed, without the spaces around it (names, ids pasted from elsewhere). */
export const trimmedText = () => _default(string().check(trim()), '');
