// The link script, GET /links.js: one file, the same for every affiliate, that turns the plain
// links of an affiliate's own site to member brands into its tracked links. The snippet loads it
// deferred (it never holds the page's rendering) and names the channel's link key:
//
//   <script defer src="PUBLIC_URL/links.js?v=…" data-key="aflnk_…"></script>
//
// Once per page it asks which domains are the brands the key's channel may promote (GET
// /links/domains, cacheable), then marks every link to one of them rel="sponsored" (reading
// hrefs and setting an attribute: no layout work). A link is made only when a visitor follows it:
// a click waits for POST /links/auto (the channel's Custom link to exactly that page, the same
// one every time) at most TIMEOUT_MS, then goes to the short link, or to the plain link when the
// network did not answer in time or refused: a click is never stranded. A press (mouse or touch)
// starts asking early, and a link once made takes the short link's address, so a new tab, a
// middle click or a second follow goes straight through it. A target="_blank" link opens its tab
// at once and sends it on when the answer comes. Links to other sites, to the page's own site and
// to the network itself are left alone, as are a click another script handled and a link to a
// new tab by a modifier key or the middle button that was not made yet (it opens plain).
import { servedScript, type ServedScript } from '../../lib/served-script.js';

/** How long a click waits for its short link before it goes to the plain link. */
export const TIMEOUT_MS = 1500;

const SOURCE = `(function(w,d){
var s=d.currentScript;if(!s||!w.fetch||!w.AbortController)return;
var base=new URL(s.src).origin,key=s.getAttribute("data-key")||"",T=${TIMEOUT_MS},doms=null,made={},ask={};
function get(p,o){var c=new AbortController(),t=setTimeout(function(){c.abort()},T);o=o||{};o.signal=c.signal;
return fetch(base+p,o).then(function(r){clearTimeout(t);if(!r.ok)throw r.status;return r.json()})}
function brand(a){var u,h,i,x;if(!doms)return;try{u=new URL(a.href,location.href)}catch(e){return}
if(!/^https?:$/.test(u.protocol)||u.origin==base||u.host==location.host)return;h=u.hostname.toLowerCase();
for(i=0;i<doms.length;i++){x=doms[i];if(h==x||h.slice(-x.length-1)=="."+x)return u.href}}
function sponsor(a){var r=(a.getAttribute("rel")||"").split(/\\s+/);if(r.indexOf("sponsored")<0)a.setAttribute("rel",r.concat("sponsored").join(" ").trim())}
function link(to){return ask[to]=ask[to]||get("/links/auto",{method:"POST",headers:{"content-type":"text/plain"},
body:JSON.stringify({key:key,page:location.href,to:to})}).then(function(j){return made[to]=j.data.shortUrl},function(e){delete ask[to];throw e})}
function at(e){var a=e.target;a=a&&a.closest&&a.closest("a[href],area[href]");return a&&brand(a)?a:null}
function swap(a,to,u){if(a.href==to)a.href=u}
function warm(e){var a=at(e),to=a&&brand(a);if(to&&!made[to])link(to).then(function(u){swap(a,to,u)},function(){})}
function follow(e){var a=at(e),to,t,x,done=0;if(!a)return;to=brand(a);sponsor(a);
if(made[to])return swap(a,to,made[to]);t=a.target;
if(e.defaultPrevented||e.button||e.ctrlKey||e.metaKey||e.shiftKey||e.altKey||a.hasAttribute("download")||(t&&t!="_self"&&t!="_blank"))return warm(e);
if(t=="_blank"){x=w.open("","_blank");if(!x)return;x.opener=null}
e.preventDefault();
function go(u){if(done)return;done=1;if(x)x.location.replace(u);else location.href=u}
setTimeout(function(){go(to)},T);
link(to).then(function(u){swap(a,to,u);go(u)},function(){go(to)})}
get("/links/domains?key="+encodeURIComponent(key)).then(function(j){doms=j.data.domains;
for(var i=0,l=d.links;i<l.length;i++)if(brand(l[i]))sponsor(l[i])},function(){});
d.addEventListener("click",follow);
d.addEventListener("mousedown",warm,true);
d.addEventListener("touchstart",warm,{capture:true,passive:true});
})(window,document);
`;

export const LINK_SCRIPT: ServedScript = servedScript(SOURCE);
