/** An element of a parsed XML document, as far as reading SAML needs. */
export type XmlElement = {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<XmlElement>;
};

/**
 * The document element of `xml`, or null when it is not XML. linkedom is loaded at first use: most
 * processes never read SAML, and it is a large module graph.
 */
export async function parseXml(xml: string): Promise<XmlElement | null> {
  const { DOMParser } = await import('linkedom');
  const root = new DOMParser().parseFromString(xml, 'text/xml')
    .documentElement as unknown as XmlElement | null;
  return root ?? null;
}

/** The elements under `node` with this local name, whatever namespace prefix they are written with. */
export const elementsNamed = (node: XmlElement, localName: string): XmlElement[] =>
  [...node.querySelectorAll('*')].filter((element) => element.tagName.split(':').pop() === localName);

/** The local name of an element (`md:EntityDescriptor` → `EntityDescriptor`). */
export const localNameOf = (element: XmlElement) => element.tagName.split(':').pop();
