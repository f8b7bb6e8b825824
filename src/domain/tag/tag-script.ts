// The first-party tag, GET /tag.js: one file, the same for every brand (so browsers and CDNs keep
// one copy and its integrity hash never changes with a brand's settings). The brand's snippet
// queues `affnet('init', { key, param, days })` before it loads. On a landing page it keeps the
// click id the short link added (`param`) for the attribution window, in a cookie of the shop's
// own site (SameSite=Lax, Secure on https) and in localStorage; `affnet('conversion', {...})` on
// the order page sends the order with that click id to POST /track/conversions on the network
// the script came from, as text/plain through sendBeacon (it survives leaving the page), else
// through fetch with keepalive.
import { createHash } from 'node:crypto';

const SOURCE = `(function(w,d){
var s=d.currentScript,base=s?new URL(s.src).origin:"",c={},N="affnet_click",q=(w.affnet&&w.affnet.q)||[];
function keep(id,days){var t=Math.max(1,days||30)*864e5;
d.cookie=N+"="+id+";path=/;max-age="+t/1e3+";SameSite=Lax"+(location.protocol=="https:"?";Secure":"");
try{localStorage.setItem(N,JSON.stringify({id:id,until:Date.now()+t}))}catch(e){}}
function kept(){var m=d.cookie.match(/(?:^|; )affnet_click=([0-9a-f]{32})/);if(m)return m[1];
try{var v=JSON.parse(localStorage.getItem(N)||"null");if(v&&v.until>Date.now())return v.id}catch(e){}}
function init(o){c=o||{};var id=new URLSearchParams(location.search).get(c.param||"clickId");
if(id&&/^[0-9a-f]{32}$/.test(id))keep(id,c.days)}
function conversion(o){o=o||{};var b=JSON.stringify({key:c.key,orderId:o.orderId,value:o.value,currency:o.currency,
items:o.items,coupon:o.coupon,customer:o.customer,clickId:kept()}),u=base+"/track/conversions";
try{if(navigator.sendBeacon&&navigator.sendBeacon(u,new Blob([b],{type:"text/plain"})))return}catch(e){}
fetch(u,{method:"POST",body:b,keepalive:true,headers:{"content-type":"text/plain"}})}
function affnet(cmd,o){if(cmd=="init")init(o);else if(cmd=="conversion")conversion(o)}
w.affnet=affnet;for(var i=0;i<q.length;i++)affnet.apply(null,q[i]);
})(window,document);
`;

export interface TagScript {
  source: string;
  /** Names this content in the tag's URL (?v=), so a new content is a new URL and the old one can be kept a day. */
  version: string;
  /** The Subresource Integrity value of the content (sha384). */
  integrity: string;
}

export const TAG_SCRIPT: TagScript = {
  source: SOURCE,
  version: createHash('sha256').update(SOURCE).digest('hex').slice(0, 12),
  integrity: `sha384-${createHash('sha384').update(SOURCE).digest('base64')}`,
};
