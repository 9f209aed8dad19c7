import { type FormEvent, useState } from 'react';
import { data, rest } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';
import { useFieldIssues } from '../field-issue.tsx';
import { FormError } from '../form-error.tsx';

/** A shared debate's comments (plain text, never HTML), and a form for a signed-in reader. */
export function Comments({ debateId, signedIn }: { debateId: string; signedIn: boolean }) {
  const comments = useLoad(
    (signal) => data(rest.GET('/api/debates/{id}/comments', { params: { path: { id: debateId } }, signal })),
    [debateId],
  );
  const [error, setError] = useState<unknown>(null);
  const fields = useFieldIssues(error);
  const post = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const content = String(new FormData(form).get('content') ?? '').trim();
    if (!content) return;
    setError(null);
    try {
      await rest.POST('/api/debates/{id}/comments', {
        params: { path: { id: debateId } },
        body: { content },
      });
      form.reset();
      comments.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      {comments.data?.comments.length ? (
        <ul className="comments">
          {comments.data.comments.map((comment) => (
            <li key={comment.id}>
              <strong>{comment.authorName}</strong>{' '}
              <span className="muted">{new Date(comment.createdAt).toLocaleString()}</span>
              <p>{comment.content}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No comments yet.</p>
      )}
      {signedIn ? (
        <form className="stack" onSubmit={post}>
          <div className="field">
            <label>
              Your comment
              <textarea {...fields.control('content')} maxLength={2000} rows={3} required />
            </label>
            {fields.issue('content')}
          </div>
          <FormError error={error} fields={['content']} />
          <button type="submit">Post comment</button>
        </form>
      ) : (
        <p>
          <a href={`/sign-in?next=${encodeURIComponent(window.location.pathname)}`}>Sign in</a> to comment.
        </p>
      )}
    </section>
  );
}
