import type { EvidenceSource } from '../../lib/contracts.ts';

/**
 * Where a passage comes from, named for a reader: the file, the page (its title linking to its address,
 * which is shown too), or the debate's context.
 */
export function SourceName({ source }: { source: EvidenceSource }) {
  if (source.kind === 'context') return <>the debate's context</>;
  if (source.kind === 'attachment') {
    return (
      <>
        the file <cite>{source.title}</cite>
      </>
    );
  }
  // Only a web address becomes a link: a page's address is what the owner typed, not the console's.
  const address = source.url && /^https?:\/\//i.test(source.url) ? source.url : null;
  return (
    <>
      the page{' '}
      {address ? (
        <a href={address} rel="noopener noreferrer">
          <cite>{source.title}</cite>
        </a>
      ) : (
        <cite>{source.title}</cite>
      )}
      {source.url && source.url !== source.title ? <span className="muted"> ({source.url})</span> : null}
    </>
  );
}
