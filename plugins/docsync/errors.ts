/** The docsync plugin's error codes, declared once with their status. */
import { definePluginErrors } from '../../sdk/index.js';

export const docsyncError = definePluginErrors('docsync', {
  not_found: { status: 404, message: 'Not found.', when: 'no documentation post, project term or sync job with that id, slug or path' },
  docsync_invalid_repo_url: { status: 400, message: 'Not a repository address (https://host/owner/repo or owner/repo).' },
  docsync_term_slug_taken: { status: 400, message: 'No free slug for the term.' },
  docsync_no_repository: { status: 400, message: 'The project term has no repository address.' },
  docsync_token_missing: { status: 400, message: 'No access token is configured (PUT /sync/token, or the docsync github_token setting)' },
  docsync_sync_failed: { status: 500, message: 'The sync job failed.' },
  // The source host's failures, one code per kind (data may carry owner, repo and sso_url).
  docsync_not_found: { status: 404, message: 'The repository or file was not found on the source host.' },
  docsync_sso_required: { status: 403, message: 'The source host requires single sign-on for this token.' },
  docsync_forbidden: { status: 403, message: 'The source host refused the token.' },
  docsync_rate_limited: { status: 400, message: 'The source host rate-limited the token.' },
  docsync_unauthorized: { status: 400, message: 'The source host did not accept the token.' },
  docsync_upstream: { status: 400, message: 'The source host failed.' },
});
