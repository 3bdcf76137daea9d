import type { PageTexts } from './en';

export const pagesTr: PageTexts = {
  yourRoles: 'Rolleriniz: {{roles}}',
  noRoles: 'yok (misafir)',
  adminExample: 'Bu sayfayı yalnızca yöneticiler görebilir.',
  staffExample: 'Bu sayfayı yalnızca yöneticiler ve personel görebilir.',
  guestExample: 'Bu sayfayı yalnızca misafirler görebilir.',
  backToLobby: 'Lobiye dön',
  comingSoon: {
    title: 'Çok yakında',
    body: 'Reel Live’ın bu bölümü hâlâ hazırlanıyor. Açılana kadar makineler lobide sizi bekliyor.',
  },
  documentation: {
    title: 'Belgeler',
    intro:
      'Reel Live ile gerçek slot makinelerini canlı video üzerinden oynarsınız. Gördüğünüz şey makinenin kendisidir: tarayıcınız görüntüsünü gösterir ve düğmelerinizi gönderir, her oyunu makine belirler.',
    guide: 'Oyuncu rehberi',
    apiTitle: 'Geliştiriciler ve operatörler için',
    apiBody:
      'Bu uygulamanın kullandığı API (REST çağrıları, oyun ve bildirim WebSocket’leri, kodlar ve mesajlar) entegrasyon yapanlar için belgelenmiştir. Oyun kuralları ve oyuncu koruma araçları her sayfanın altındaki bilgi sayfalarındadır.',
    apiLink: 'API belgelerini aç',
  },
  guide: {
    lobby: {
      title: 'Lobi',
      body: 'Bir slot grubu, sonra bir makine seçin. Her makine durumunu gösterir: Uygun makineler oynanabilir; Oynanıyor, Bekliyor ve Rezerve olanlar başkasındadır; Uygun Değil olanlar çevrim dışı ya da arızalıdır.',
    },
    join: {
      title: 'Bir makinede oynamak',
      body: 'Uygun bir makinede Oyna’ya basın. Canlı görüntüsü başlar ve siz ayrılana kadar makine sizindir: bu sırada başka kimse oynayamaz.',
    },
    credits: {
      title: 'Krediler',
      body: 'Jeton düğmeleriyle bakiyenizden makineye para yükleyin. Bahisler makinenin kredisinden düşülür, kazançlar ona eklenir. Bir makine en fazla limiti kadar kredi tutar.',
    },
    spin: {
      title: 'Çevirmek',
      body: 'Bahsinizi seçip Çevir’e ya da boşluk tuşuna basın. Otomatik oyun siz durdurana kadar sizin için çevirir. Görüntü donmuşken ya da bağlanırken Çevir bekler: ödediğiniz oyunu her zaman görürsünüz.',
    },
    cashout: {
      title: 'Ödeme almak',
      body: 'Ödeme al, makinenin kredisini bakiyenize geri getirir. Oyun ekranından ayrılmak da ödeme alır.',
    },
    reconnect: {
      title: 'Bağlantı koptuğunda',
      body: 'Oturumunuz bir süre açık kalır. Oyuna ya da lobiye döndüğünüzde devam etmeyi, ödeme almayı ya da iptal etmeyi seçersiniz; kredileriniz asla kaybolmaz.',
    },
    account: {
      title: 'Hesabınız',
      body: 'Bakiyeniz, oyun oturumlarınız ve işlemleriniz menüdedir. PIN’iniz uzaklaştığınızda ekranı kilitler; bir sorun görürseniz destek sohbet panelindedir.',
    },
  },
  auth: {
    login: {
      title: 'Giriş',
      body: '{{name}} olarak giriş yaptınız. Reel Live’ın tek bir giriş sayfası vardır; Beni hatırla bu cihazda oturumunuzu açık tutar ve art arda beş yanlış şifreden sonra hesap bir süre engellenir.',
      action: 'Çıkış yap',
    },
    register: {
      title: 'Hesap açmak',
      body: 'Hesapları bu sitede değil, operatör açar. Hesap açmak ya da bilgilerinizi değiştirmek için destek ile iletişime geçin.',
      support: 'Destek: {{phone}}',
    },
    password: {
      title: 'Şifrenizi değiştirmek ya da sıfırlamak',
      body: 'Şifrenizi profil sayfanızda istediğiniz zaman değiştirebilirsiniz (en az 8 karakter). Unuttuysanız destek, kimliğinizi doğruladıktan sonra sıfırlar ve tüm cihazlarda oturum kapanır.',
      profile: 'Şifre değiştir',
      procedure: 'Şifre sıfırlama prosedürünü okuyun',
    },
    lock: {
      title: 'Ekran kilidi',
      on: 'Bir dakika işlem yapılmazsa ekran kilitlenir ve PIN’iniz onu yeniden açar. Otomatik oyun ve bedava dönüşler asla kesilmez.',
      off: 'Bu sitede ekran kilidi kapalı: bir dakika işlem yapılmazsa yalnızca hâlâ orada olup olmadığınız sorulur.',
      pin: 'PIN’iniz var.',
      noPin: 'Henüz PIN’iniz yok: destek sizin için belirleyebilir.',
    },
    mail: {
      title: 'E-posta onayı',
      body: 'Reel Live e-posta göndermez, onaylanacak bir şey yoktur: hesabınız operatör açarken kontrol edildi.',
    },
  },
  search: {
    title: 'Arama',
    classic: 'Klasik arama',
    modern: 'Modern arama',
    label: 'Menüde ve bilgi sayfalarında ara',
    hint: 'Bir sayfa başlığından bir kelime yazın.',
    empty: 'Sonuç yok..',
    count: '{{count}} sonuç',
    opensInNewTab: '(yeni sekmede açılır)',
  },
  ui: {
    icons: {
      title: 'Simgeler',
      intro: 'Uygulamanın çizdiği tüm simgeler ({{count}}): Material Design’dan satır içi SVG yolları, bu yüzden simge yazı tipi indirilmez.',
      filter: 'Simgeleri süz',
    },
    typography: {
      title: 'Tipografi',
      intro: 'Uygulamanın kullandığı yazı: sistem yazı tipleri, sayfa başlığından küçük yazıya kadar boyutlar ve dilinizin yazdığı biçimde para.',
      headings: 'Başlıklar',
      heading: '{{level}}. düzey başlık',
      body: 'Gövde metni',
      bodySample: 'Gerçek slot makineleri, ekranınızda canlı.',
      muted: 'İkincil bilgiler için soluk metin',
      small: 'Küçük yazı',
      money: 'Para',
      numbers: 'Sayılar',
      code: 'Kod',
    },
    helpers: {
      title: 'Yardımcı sınıflar',
      intro: 'Uygulamanın ekranlarının paylaştığı küçük CSS sınıfları.',
      muted: 'Soluk renkte ikincil metin.',
      small: 'Daha küçük metin.',
      textAccent: 'Temanın vurgu renginde metin.',
      textWarning: 'Uyarı renginde metin.',
      centerText: 'Ortalanmış metin.',
      visuallyHidden: 'Ekran okuyucular okur, gösterilmez.',
      card: 'Kenarlıklı, yükseltilmiş bir yüzey.',
      badge: 'Küçük bir sayı.',
      hiddenSample: '(bu cümle gizlidir)',
    },
    layouts: {
      title: 'Sayfa düzeni: {{name}}',
      intro: 'Uygulamanın kullanabileceği sayfa düzenlerinden biri, oyuncu rehberiyle dolduruldu.',
      contents: 'İçindekiler',
      carded: 'Kartlı',
      simple: 'Sade',
      blank: 'Boş',
      fullWidth: 'tam genişlik',
      leftSidebar: 'sol kenar çubuğu',
      rightSidebar: 'sağ kenar çubuğu',
      tabbed: 'sekmeli',
    },
  },
};
