using System;

namespace Billing.Api
{
    // Controller for invoices (hiddenComment)
    public class InvoiceController
    {
        private readonly IInvoiceStore _invoiceStore;

        public int PageSize { get; set; } = 25;

        public InvoiceController(IInvoiceStore invoiceStore)
        {
            _invoiceStore = invoiceStore;
        }

        public string ExportPath(string @class)
        {
            var folder = @"C:\exports\hiddenVerbatim ""quoted""";
            return folder + @class + InvoiceFormat.Pdf;
        }
    }
}
