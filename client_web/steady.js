// Boxes of the game screen that keep the tallest height they have had (until the window changes its width): when
// the bar's sentence loses its pick order or the dice tray a row, the page under them does not move up, so an
// update does not shift the whole page (which the browser then repaints and rasters again whole) and the sheet
// does not jump under the player's finger. The height is read from a ResizeObserver, after layout: no forced
// layout.
//
//   const stop = steadyHeight(box, { media: "(min-width: 701px)" });  // only while the media query matches
//   stop();                                                          // back to its own height, no observer

export function steadyHeight(box, { media = null } = {}) {
  const query = media ? matchMedia(media) : null;
  let tallest = 0;
  let width = window.innerWidth;
  const release = () => {
    tallest = 0;
    if (box.style.minHeight) box.style.minHeight = "";
  };
  const observer = new ResizeObserver((entries) => {
    if (window.innerWidth !== width || (query && !query.matches)) {
      width = window.innerWidth;
      release();
      return;
    }
    const size = entries[entries.length - 1].borderBoxSize?.[0];
    const h = size ? size.blockSize : box.getBoundingClientRect().height;
    // (boxes are border-box sized: the min-height is the height observed)
    if (h > tallest + 0.5) {
      tallest = h;
      box.style.minHeight = `${Math.ceil(h)}px`;
    }
  });
  observer.observe(box);
  return () => {
    observer.disconnect();
    release();
  };
}
