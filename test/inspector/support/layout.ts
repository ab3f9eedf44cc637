// What "usable at this width" means for the layout tests, measured in the page as it stands:
// the document no wider than the viewport (no sideways scroll of the page), no text squeezed
// into a column a character or two wide, and no two interactive or sectioning elements drawn
// over each other. Boxes are taken as seen: cut to the scrolling containers they sit in.
import type { Locator, Page } from 'playwright-core';

// The page's globals as far as the function run in it uses them (this Node project has no DOM
// library; declared here, in this module only).
interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
}
interface PageNode {
  textContent: string | null;
  parentElement: PageElement | null;
}
interface PageElement extends PageNode {
  tagName: string;
  classList: ArrayLike<string>;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Rect;
  contains(other: PageElement): boolean;
  checkVisibility(): boolean;
}
declare const document: {
  documentElement: { scrollWidth: number };
  body: PageElement;
  createTreeWalker(root: PageElement, show: number): { nextNode(): PageNode | null };
  createRange(): { selectNodeContents(node: PageNode): void; getClientRects(): ArrayLike<Rect> };
  querySelectorAll(selector: string): ArrayLike<PageElement>;
};
declare const innerWidth: number;
declare const NodeFilter: { SHOW_TEXT: number };
declare function getComputedStyle(element: PageElement): { overflowX: string; overflowY: string };

/** The problems found, one readable line each; none when the view is usable at this width. */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > innerWidth) problems.push(`the page is ${root.scrollWidth} px wide in a ${innerWidth} px viewport`);

    const name = (element: PageElement) => {
      const label = element.getAttribute('aria-label') ?? (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const classes = element.classList.length > 0 ? `.${Array.from(element.classList).join('.')}` : '';
      return `${element.tagName.toLowerCase()}${classes} "${label}"`;
    };

    // Text squeezed: a text node laid out in three lines or more of under four characters each.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').replace(/\s+/g, '');
      if (text.length < 4 || !node.parentElement?.checkVisibility()) continue;
      range.selectNodeContents(node);
      const tops = new Set(
        Array.from(range.getClientRects())
          .filter((rect) => rect.width > 0)
          .map((rect) => Math.round(rect.top)),
      );
      if (tops.size >= 3 && text.length / tops.size < 4) {
        problems.push(`"${text.slice(0, 30)}" in ${name(node.parentElement ?? document.body)} is cut into ${tops.size} lines`);
      }
    }

    // Boxes as seen: each element's box cut to every scrolling or clipping ancestor.
    const seen = (element: PageElement) => {
      // Not drawn (display none, or in a closed <details>): nothing to see.
      if (!element.checkVisibility()) return undefined;
      const box = element.getBoundingClientRect();
      let [left, top, right, bottom] = [box.left, box.top, box.right, box.bottom];
      for (let up = element.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = up.getBoundingClientRect();
        [left, top, right, bottom] = [
          Math.max(left, clip.left),
          Math.max(top, clip.top),
          Math.min(right, clip.right),
          Math.min(bottom, clip.bottom),
        ];
      }
      return right - left > 1 && bottom - top > 1 ? { left, top, right, bottom } : undefined;
    };
    const selector = 'button, input, select, textarea, a[href], summary, [tabindex="0"], table, form, fieldset, section, article, pre';
    const boxes = Array.from(document.querySelectorAll(selector)).flatMap((element) => {
      const box = seen(element);
      return box ? [{ element, box }] : [];
    });
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (across > 1 && down > 1) problems.push(`${name(a.element)} and ${name(b.element)} overlap`);
      }
    }
    return problems;
  });
}

/** Whether two elements' boxes overlap (by more than a pixel each way). */
export async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [one, two] = [await a.boundingBox(), await b.boundingBox()];
  if (!one || !two) throw new Error('an element to compare is not shown');
  const across = Math.min(one.x + one.width, two.x + two.width) - Math.max(one.x, two.x);
  const down = Math.min(one.y + one.height, two.y + two.height) - Math.max(one.y, two.y);
  return across > 1 && down > 1;
}
