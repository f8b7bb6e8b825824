// The first-party tag, GET /tag.js: one file, the same for every brand (so browsers and CDNs keep
// one copy and its integrity hash never changes with a brand's settings). The brand's snippet
// queues `affnet('init', { key, param, days })` before it loads. On a landing page it keeps the
// click id the short link added (`param`) for the attribution window, in a cookie of the shop's
// own site (SameSite=Lax, Secure on https) and in localStorage; `affnet('conversion', {...})` on
// the order page sends the order with that click id to POST /track/conversions on the network
// the script came from, as text/plain through sendBeacon (it survives leaving the page), else
// through fetch with keepalive. A landing whose address also carries `affnet_test` is a test
// order's (src/domain/tag/tag-tests.ts): the tag announces it to POST /track/visits.
//
// With no call at all, the tag reports the shop's own purchase event from window.dataLayer (what
// Google Tag Manager and most shop platforms push): GA4's { event: 'purchase', ecommerce }, gtag's
// ('event', 'purchase', {...}) and Universal Analytics' ecommerce.purchase, pushed before or after
// the tag loaded. Decimal amounts become integer cents by the currency's minor unit, as text (no
// float multiplication). It waits for the page's load and a turn after any push, and reports none
// when the page called affnet('conversion') itself by then: the shop's explicit call wins. One
// report per order id per page; a reload sends it again, and the network keeps the first. Lines go
// only when they fit the value the way the network checks it, and a coupon only when it is one
// word, so a bad line or code never costs the order.
import { servedScript, type ServedScript } from '../../lib/served-script.js';

const SOURCE = `(function(w,d){
var s=d.currentScript,base=s?new URL(s.src).origin:"",c={},N="affnet_click",q=(w.affnet&&w.affnet.q)||[],sent={},hand=0,late=[],loaded=0,seen=[];
function keep(id,days){var t=Math.max(1,days||30)*864e5;
d.cookie=N+"="+id+";path=/;max-age="+t/1e3+";SameSite=Lax"+(location.protocol=="https:"?";Secure":"");
try{localStorage.setItem(N,JSON.stringify({id:id,until:Date.now()+t}))}catch(e){}}
function kept(){var m=d.cookie.match(/(?:^|; )affnet_click=([0-9a-f]{32})/);if(m)return m[1];
try{var v=JSON.parse(localStorage.getItem(N)||"null");if(v&&v.until>Date.now())return v.id}catch(e){}}
function init(o){c=o||{};var p=new URLSearchParams(location.search),id=p.get(c.param||"clickId");
if(id&&/^[0-9a-f]{32}$/.test(id)){keep(id,c.days);if(p.has("affnet_test"))post("/track/visits",{key:c.key,clickId:id})}}
function post(p,o){var b=JSON.stringify(o),u=base+p;
try{if(navigator.sendBeacon&&navigator.sendBeacon(u,new Blob([b],{type:"text/plain"})))return}catch(e){}
fetch(u,{method:"POST",body:b,keepalive:true,headers:{"content-type":"text/plain"}})}
function send(o){if(sent[o.orderId])return;sent[o.orderId]=1;post("/track/conversions",{key:c.key,orderId:o.orderId,value:o.value,currency:o.currency,
items:o.items,coupon:o.coupon,customer:o.customer,clickId:kept()})}
function conversion(o){hand=1;send(o||{})}
function cents(v,n){var m=/^(\\d*)(?:\\.(\\d*))?$/.exec(String(v).trim()),f;if(!m||!(m[1]||m[2]))return NaN;
f=(m[2]||"")+"0000";return +(m[1]+f.slice(0,n))+(f.charAt(n)>4?1:0)}
function purchase(p){var t=String(p.transaction_id||""),k=String(p.coupon||""),r=String(p.currency||"").toUpperCase(),n=2,v,a=p.items,x=0,ok;
if(hand||!/^\\S{1,200}$/.test(t))return;r=/^[A-Z]{3}$/.test(r)?r:void 0;
try{n=new Intl.NumberFormat("en",{style:"currency",currency:r}).resolvedOptions().maximumFractionDigits}catch(e){}
v=cents(p.value,n);if(!(v>0))return;
ok=Array.isArray(a)&&a.length>0&&a.length<=500;a=ok&&a.map(function(i){var id=String(i.item_id||i.item_name||""),u=+i.quantity||1,e=cents(i.price||0,n),g=String(i.item_category);x+=u*e;
if(!(id&&id.length<=200&&u%1==0&&u>0&&u<=1e6&&e>=0))ok=0;return{id:id,name:String(i.item_name||"").slice(0,500),quantity:u,price:e,categories:/^\\d{1,9}$/.test(g)?+g:0}});
send({orderId:t,value:v,currency:r,items:ok&&Math.abs(x-v)<=Math.max(100,Math.floor(v/100))?a:void 0,coupon:/^\\S{1,100}$/.test(k)?k:void 0})}
function entry(e){var x=e&&e.ecommerce,a;
if(e&&e[0]=="event"&&e[1]=="purchase"&&e[2])later(e[2]);
else if(x&&x.purchase){a=x.purchase.actionField||{};later({transaction_id:a.id,value:a.revenue,coupon:a.coupon,currency:x.currencyCode,
items:(x.purchase.products||[]).map(function(i){return{item_id:i.id,item_name:i.name,price:i.price,quantity:i.quantity,item_category:i.category}})})}
else if(x&&e.event=="purchase")later(x)}
function watch(l){if(!l||!l.push||seen.indexOf(l)>=0)return;seen.push(l);for(var i=0;i<l.length;i++)try{entry(l[i])}catch(e){}
var push=l.push;l.push=function(){for(var i=0;i<arguments.length;i++)try{entry(arguments[i])}catch(e){}return push.apply(l,arguments)}}
function later(p){late.push(p);if(loaded)setTimeout(flush)}
function flush(){while(late.length)try{purchase(late.shift())}catch(e){}}
function ready(){loaded=1;watch(w.dataLayer);flush()}
function affnet(cmd,o){if(cmd=="init")init(o);else if(cmd=="conversion")conversion(o)}
w.affnet=affnet;for(var i=0;i<q.length;i++)affnet.apply(null,q[i]);
watch(w.dataLayer=w.dataLayer||[]);
if(d.readyState=="complete")setTimeout(ready);else w.addEventListener("load",function(){setTimeout(ready)});
})(window,document);
`;

export const TAG_SCRIPT: ServedScript = servedScript(SOURCE);
