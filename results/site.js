// The results site's hover: every plot mark's <title> (its value, interval and seeds) shown in a box beside
// the pointer. Plain DOM, no library, nothing fetched; written into results/ by analysis/python/perflab_site.
(function () {
  const tip = document.getElementById("tip");
  document.querySelectorAll("svg.plot .point, svg.plot .seed").forEach(function (mark) {
    const title = mark.querySelector("title");
    if (!title) return;
    mark.dataset.tip = title.textContent;
    title.remove();  // the box replaces the browser's own slower tooltip
    function place(e) {
      tip.style.left = Math.max(0, Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 8)) + "px";
      tip.style.top = e.clientY + 14 + "px";
    }
    mark.addEventListener("mouseenter", function (e) {
      tip.textContent = mark.dataset.tip;
      tip.style.display = "block";
      place(e);
    });
    mark.addEventListener("mousemove", place);
    mark.addEventListener("mouseleave", function () { tip.style.display = "none"; });
  });
})();
