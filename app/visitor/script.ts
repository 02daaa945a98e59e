// The visitor page's only JavaScript, inline (under 4 KB, a test checks): progressive extras on a page that
// works without it. Read-aloud appears only when the device has a voice for the page's language and no
// narration plays (a recording this browser cannot play, decision 119, gives way to read-aloud); the
// language list filters as the visitor types (the search form filters on the server without JavaScript).
export const VISITOR_SCRIPT = `(function(){var d=document;
function norm(x){return x.normalize("NFD").replace(/[\\u0300-\\u036f]/g,"").toLowerCase().trim()}
var b=d.getElementById("v-read"),s=window.speechSynthesis,a=d.getElementById("v-audio"),c=a&&a.querySelector("source");
if(a){if(!a.canPlayType||!c||a.canPlayType(c.type))b=null;else a.parentNode.hidden=true}
if(b&&s&&window.SpeechSynthesisUtterance){var l=(b.getAttribute("data-lang")||"").toLowerCase(),p=l.split("-")[0];
var voice=function(){var v=s.getVoices(),i,m=null;for(i=0;i<v.length;i++){var x=v[i].lang.toLowerCase().replace("_","-");if(x===l)return v[i];if(!m&&x.split("-")[0]===p)m=v[i]}return m};
var label=function(on){b.textContent=b.getAttribute(on?"data-stop":"data-read");b.setAttribute("aria-pressed",on?"true":"false")};
var show=function(){if(voice())b.hidden=false};show();if(s.addEventListener)s.addEventListener("voiceschanged",show);
b.addEventListener("click",function(){if(s.speaking){s.cancel();label(false);return}var t=d.getElementById("v-text");if(!t)return;
var u=new SpeechSynthesisUtterance(t.innerText);u.lang=l;u.voice=voice();u.onend=u.onerror=function(){label(false)};s.speak(u);label(true)})}
var q=d.getElementById("v-q");if(q){var none=d.getElementById("v-none");var f=function(){var n=norm(q.value),c=0;
d.querySelectorAll("li[data-names]").forEach(function(li){var ok=!n||li.getAttribute("data-names").indexOf(n)>=0;li.hidden=!ok;if(ok)c++});if(none)none.hidden=c>0};
q.addEventListener("input",f)}})();`;
